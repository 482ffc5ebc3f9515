// Appended to a copy of report.html by render_report.sh. It runs only where chromium parsed the page
// to its end (an unclosed comment, <style> or <title> swallows it), looks at the page as laid out,
// and writes what it found into the title, which --dump-dom prints:
// "probe: ok: <devices, ' | ' between>; <n> families" or "probe: <problem>; <problem>...".
(function () {
  const problems = [];
  // Laid out and visible: display:none, a zero size or visibility:hidden all count as not shown.
  const shown = (element) => element !== null && element.getClientRects().length > 0 &&
                             element.offsetWidth > 0 && element.offsetHeight > 0 &&
                             getComputedStyle(element).visibility === "visible";
  const visibleText = document.body.innerText;
  for (const selector of ["h1", "p.summary", "table.fp", "table.overview", "p.legend"]) {
    if (!shown(document.querySelector(selector))) problems.push(`no ${selector} shown`);
  }
  const devices = Array.from(document.querySelectorAll("table.fp tr:first-child th"))
                       .map((th) => th.innerText.trim()).filter((name) => name !== "");
  if (devices.length === 0) problems.push("the device table names no device");
  for (const device of devices) {
    if (!visibleText.includes(device)) problems.push(`device ${device} not shown`);
  }
  // Each family of the matrix: its row has a cell per device, and its link leads to the family's
  // heading, followed by its grid of calls, both shown.
  const links = Array.from(document.querySelectorAll("table.overview td > a[href^='#']"));
  if (links.length === 0) problems.push("the matrix lists no family");
  for (const link of links) {
    const family = link.innerText.trim();
    const cells = link.closest("tr").querySelectorAll("td.c").length;
    if (cells !== devices.length) problems.push(`family ${family}: ${cells} cells for ${devices.length} devices`);
    const heading = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!shown(heading)) {
      problems.push(`family ${family}: its link ${link.getAttribute("href")} leads to nothing shown`);
      continue;
    }
    const grid = heading.nextElementSibling;
    if (grid === null || !grid.matches("table.grid") || !shown(grid)) problems.push(`family ${family}: no grid shown after its heading`);
  }
  // The SM coverage heatmap of the H100's shuffle checks: drawn, shown, with the SMs they covered and
  // the one they missed.
  const heatmap = document.querySelector("svg.heatmap");
  // An SVG element has no offsetWidth: its laid-out box is its bounding rectangle.
  const drawn = heatmap !== null && heatmap.getBoundingClientRect().width > 0 &&
                heatmap.getBoundingClientRect().height > 0 && getComputedStyle(heatmap).visibility === "visible";
  if (!drawn) problems.push("no SM coverage heatmap shown");
  else {
    if (heatmap.querySelectorAll("rect.covered").length === 0) problems.push("the heatmap shows no covered SM");
    if (heatmap.querySelectorAll("rect.missed").length === 0) problems.push("the heatmap shows no missed SM");
  }
  document.title = problems.length === 0 ? `probe: ok: ${devices.join(" | ")}; ${links.length} families`
                                         : `probe: ${problems.join("; ")}`;
})();
