// core/files.hpp: what an input file may be (a file, a pipe, a character device; never a
// directory), how much of it is read, and writes that are whole or not at all.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "core/files.hpp"
#include "harness/scratch_dir.hpp"

namespace wc {
namespace {

namespace fs = std::filesystem;

// The error of reading `path` whole, "" where it reads.
std::string read_error(const std::string& path, uint64_t most = files::kMostInputBytes) {
  try {
    files::read_input(path, most);
  } catch (const files::FileError& e) {
    EXPECT_EQ(e.path(), path);
    return e.what();
  }
  return "";
}

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(InputFile, reads_a_file_and_refuses_a_directory_a_socket_and_a_missing_file_naming_each) {
  const fs::path dir = harness::fresh_test_dir("files-kinds");
  std::ofstream(dir / "file") << "some text\n";
  EXPECT_EQ(files::read_input((dir / "file").string()), "some text\n");
  EXPECT_EQ(read_error(dir.string()), dir.string() + ": cannot read: Is a directory");
  EXPECT_EQ(read_error((dir / "missing").string()), (dir / "missing").string() + ": cannot read: No such file or directory");
  const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string socket_path = (dir / "socket").string();
  ASSERT_LT(socket_path.size(), sizeof address.sun_path);
  socket_path.copy(address.sun_path, socket_path.size());
  ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  EXPECT_NE(read_error(socket_path).find(socket_path + ": cannot read: "), std::string::npos);
  ::close(listener);
}

// A pipe is read to its end, as `warpconf results <(zcat results.jsonl.gz)` needs.
TEST(InputFile, reads_a_pipe) {
  const fs::path dir = harness::fresh_test_dir("files-pipe");
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&fifo] { std::ofstream(fifo) << std::string(200000, 'x'); });
  EXPECT_EQ(files::read_input(fifo), std::string(200000, 'x'));
  writer.join();
}

// Past its bound a reader stops: at once for a file whose size says so, and after the bound for a
// stream without an end.
TEST(InputFile, refuses_to_read_past_its_bound) {
  const fs::path dir = harness::fresh_test_dir("files-bound");
  std::ofstream(dir / "file") << std::string(1001, 'x');
  EXPECT_EQ(files::read_input((dir / "file").string(), 1001).size(), 1001u);
  EXPECT_EQ(read_error((dir / "file").string(), 1000),
            (dir / "file").string() + ": larger than 1000 bytes, the most warpconf reads of it");
  EXPECT_EQ(read_error("/dev/zero", 1 << 20), "/dev/zero: larger than 1048576 bytes, the most warpconf reads of it");
}

// A stream error reaches the reader's caller as the FileError it is (badbit rethrows it).
TEST(InputFile, a_bound_passed_mid_line_reaches_getline_s_caller) {
  files::InputFile in("/dev/zero", 100000);
  std::string line;
  EXPECT_THROW(std::getline(in, line), files::FileError);
}

TEST(WriteAtomically, replaces_the_file_whole_and_leaves_nothing_beside_it) {
  const fs::path dir = harness::fresh_test_dir("files-write");
  const std::string path = (dir / "report.json").string();
  files::write_atomically(path, "old\n");
  files::write_atomically(path, "new\n");
  EXPECT_EQ(text_of(path), "new\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1) << "no .partial file left";
  try {
    files::write_atomically((dir / "no-such-folder" / "x").string(), "text");
    ADD_FAILURE() << "wrote into a folder that does not exist";
  } catch (const files::FileError& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "no-such-folder" / "x").string() + ": cannot write: No such file or directory");
  }
}

// A pipe or a device is written into, never replaced by a file (as root the rename put a regular file
// where /dev/full was); a symbolic link stays a link to the new text.
TEST(WriteAtomically, writes_into_a_pipe_and_through_a_link_leaving_both_in_place) {
  const fs::path dir = harness::fresh_test_dir("files-write-special");
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&fifo, &got] { got = files::read_input(fifo); });
  files::write_atomically(fifo, "through the pipe\n");
  reader.join();
  EXPECT_EQ(got, "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));

  files::write_atomically((dir / "file").string(), "old\n");
  fs::create_symlink(dir / "file", dir / "link");
  files::write_atomically((dir / "link").string(), "new\n");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir / "link")));
  EXPECT_EQ(text_of((dir / "file").string()), "new\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 3) << "no .partial file left";
}

// The second write fails (its folder is missing): the first file gets its old text back, and a new
// one goes again.
TEST(WriteAllOrNothing, a_write_that_fails_puts_back_every_file_written_before_it) {
  const fs::path dir = harness::fresh_test_dir("files-all-or-nothing");
  std::ofstream(dir / "a.golden") << "old a\n";
  const std::vector<files::Update> updates = {{(dir / "a.golden").string(), "new a\n"},
                                              {(dir / "b.golden").string(), "new b\n"},
                                              {(dir / "missing" / "c.golden").string(), "new c\n"}};
  try {
    files::write_all_or_nothing(updates);
    ADD_FAILURE() << "wrote into a folder that does not exist";
  } catch (const files::FileError& e) {
    EXPECT_EQ(e.path(), updates[2].path);
    EXPECT_NE(std::string(e.what()).find("nothing written, every file as it was"), std::string::npos) << e.what();
  }
  EXPECT_EQ(text_of(dir / "a.golden"), "old a\n");
  EXPECT_FALSE(fs::exists(dir / "b.golden"));
  files::write_all_or_nothing({updates[0], updates[1]});
  EXPECT_EQ(text_of(dir / "a.golden"), "new a\n");
  EXPECT_EQ(text_of(dir / "b.golden"), "new b\n");
}

}  // namespace
}  // namespace wc
