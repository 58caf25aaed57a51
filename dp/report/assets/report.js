/* dp report: draws the charts and tables from the data embedded in the page (dp/report/page.py).
   Captured text reaches the document only through textContent and the charts' canvas, never as markup.
   Once drawn, each chart's figure says what it drew (data-state, data-points, data-painted: pixels in its
   datasets' colours) and the body says "drawn": the page's own record, which the browser test reads. */
(function () {
  "use strict";
  var GREEN = "#2da44e", RED = "#cf222e", ORANGE = "#e16f24", GREY = "#8c959f", PURPLE = "#8250df",
      BLUE = "#0969da", TEAL = "#1b7c83";
  var PALETTE = [BLUE, ORANGE, TEAL, PURPLE, "#bf3989", GREY];
  var errors = [];
  window.addEventListener("error", function (event) { errors.push(String(event.message)); });

  var data = JSON.parse(document.getElementById("dp-data").textContent);

  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function rgb(hex) {
    return [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)];
  }

  /* Pixels of the canvas painted in one of the datasets' colours: the bars themselves, not axes or text. */
  function painted(canvas, colours) {
    var wanted = colours.map(rgb), pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    var count = 0;
    for (var at = 0; at < pixels.length; at += 4) {
      if (pixels[at + 3] !== 255) continue;
      for (var which = 0; which < wanted.length; which++) {
        var colour = wanted[which];
        if (pixels[at] === colour[0] && pixels[at + 1] === colour[1] && pixels[at + 2] === colour[2]) { count++; break; }
      }
    }
    return count;
  }

  function draw(id, config, emptyText) {
    var figure = document.getElementById(id);
    var points = 0, colours = [];
    config.data.datasets.forEach(function (set) {
      set.data.forEach(function (value) { if (value) points++; });
      colours = colours.concat(Array.isArray(set.backgroundColor) ? set.backgroundColor : [set.backgroundColor]);
    });
    figure.dataset.points = String(points);
    if (!points) {
      figure.querySelector(".empty").textContent = emptyText;
      figure.dataset.state = "empty";
      return;
    }
    config.options = Object.assign({ animation: false, responsive: true, maintainAspectRatio: false }, config.options);
    var canvas = figure.querySelector("canvas");
    new Chart(canvas, config);
    figure.dataset.painted = String(painted(canvas, colours.filter(Boolean)));
    figure.dataset.state = "drawn";
  }

  function dataset(label, values, colour, extra) {
    return Object.assign({ label: label, data: values, backgroundColor: colour, borderColor: colour }, extra || {});
  }

  function stackedAxes(horizontal) {
    var count = { stacked: true, beginAtZero: true, ticks: { precision: 0 } }, names = { stacked: true };
    return horizontal ? { x: count, y: names } : { x: names, y: count };
  }

  function timeline() {
    var line = data.timeline, teamwide = line.measure === "new paths";
    document.getElementById("how-timeline").textContent = teamwide
      ? "New desire paths per " + line.by + ": the paths the team first met that " + line.by + " (the team's " +
        "aggregates keep each path's first and last day, not its failures day by day)."
      : "Captured failures per " + line.by + ", the most worn paths each in their own colour and the rest as " +
        "\"other paths\"; the line is dp's actions on the same " + line.by + "s (rewrites, blocks, answers told).";
    var sets = line.series.map(function (series, at) {
      return dataset(series.label, series.counts, PALETTE[at % PALETTE.length], { stack: "paths", order: 2 });
    });
    if (line.acted.some(Boolean)) {
      sets.push(dataset("dp acted", line.acted, "#24292f", { type: "line", yAxisID: "acted", order: 1,
        backgroundColor: "#24292f", pointRadius: 3, tension: 0.2 }));
    }
    var scales = stackedAxes(false);
    scales.acted = { position: "right", beginAtZero: true, ticks: { precision: 0 }, grid: { drawOnChartArea: false },
                     display: line.acted.some(Boolean) };
    draw("chart-timeline", { type: "bar", data: { labels: line.buckets, datasets: sets }, options: { scales: scales } },
         "No failure captured in this period.");
  }

  function topPaths() {
    var shown = data.paths.slice(0, data.top_paths);
    var labels = shown.map(function (path) { return path.shape + " (" + path.error_class + ")"; });
    draw("chart-paths", { type: "bar", data: { labels: labels, datasets: [
      dataset("covered by a rule", shown.map(function (path) { return path.covered_by ? path.count : null; }), GREEN),
      dataset("not covered", shown.map(function (path) { return path.covered_by ? null : path.count; }), ORANGE)
    ] }, options: { indexAxis: "y", scales: stackedAxes(true) } }, "No failure captured in this period.");
  }

  function ruleLabel(rule) { return rule.rule + (rule.hurts ? "  ⚠ hurts" : ""); }

  function rules() {
    var shown = data.rules;
    draw("chart-rules", { type: "bar", data: { labels: shown.map(ruleLabel), datasets: [
      dataset("succeeded", shown.map(function (rule) { return rule.succeeded; }), GREEN, { stack: "calls" }),
      dataset("failed", shown.map(function (rule) { return rule.failed; }), RED, { stack: "calls" }),
      dataset("not captured", shown.map(function (rule) { return rule.unknown; }), GREY, { stack: "calls" }),
      dataset("undone next", shown.map(function (rule) { return rule.undone; }), PURPLE, { stack: "undone" })
    ] }, options: { indexAxis: "y", scales: stackedAxes(true) } },
         "No rule acted in this period (dp acts when a rule, paving or a learned answer applies).");
  }

  function watched() {
    var shown = data.watched;
    draw("chart-watched", { type: "bar", data: {
      labels: shown.map(function (rule) { return rule.rule + " [" + rule.kind + "]"; }), datasets: [
        dataset("followed, and it worked", shown.map(function (rule) { return rule.followed_and_worked; }), GREEN),
        dataset("followed, and it failed",
                shown.map(function (rule) { return rule.followed - rule.followed_and_worked; }), ORANGE),
        dataset("not followed", shown.map(function (rule) { return rule.actions - rule.followed; }), GREY)
      ] }, options: { indexAxis: "y", scales: stackedAxes(true) } },
         "No learned answer was told in this period (dp tells one after a failure it has learned the fix of).");
  }

  var FIGURES = [["failures", "failures captured"], ["calls_seen", "calls seen"], ["rewritten", "rewritten"],
                 ["advised", "advised"], ["blocked", "blocked"], ["answered", "answered"],
                 ["shadowed", "shadow (would have)"], ["prevented", "failures prevented"],
                 ["answers_followed", "answers followed"]];

  function header() {
    var filters = data.filters || {}, parts = [data.scope === "team" ? "The team's desire paths" : "This machine",
      "since " + data.since, "written " + data.generated];
    if (filters.agent) parts.push("agent " + filters.agent);
    if (filters.project) parts.push("under " + filters.project);
    document.getElementById("scope").textContent = parts.join(" · ");
    var notes = document.getElementById("notes");
    data.notes.forEach(function (note) { notes.appendChild(element("li", note)); });
    var box = document.getElementById("figures");
    FIGURES.forEach(function (pair) {
      var value = data.figures[pair[0]], figure = element("div", null, "figure");
      figure.appendChild(element("span", value === null || value === undefined ? "–" : value, "value"));
      figure.appendChild(element("span", pair[1], "label"));
      box.appendChild(figure);
    });
  }

  function table(id, columns, rows) {
    var node = document.getElementById(id), head = element("tr"), body = node.querySelector("tbody");
    columns.forEach(function (column) { head.appendChild(element("th", column[0])); });
    node.querySelector("thead").appendChild(head);
    rows.forEach(function (row) {
      var line = element("tr");
      columns.forEach(function (column) {
        var value = column[1](row);
        var style = typeof column[2] === "function" ? column[2](row) : column[2];
        line.appendChild(element("td", value, style || (typeof value === "number" ? "number" : "")));
      });
      body.appendChild(line);
    });
  }

  function tables() {
    var paths = [["path", function (p) { return p.shape; }, "code"], ["class", function (p) { return p.error_class; }],
                 ["failures", function (p) { return p.count; }], ["sessions", function (p) { return p.sessions; }]];
    if (data.scope === "team") paths.push(["people", function (p) { return p.people; }]);
    paths.push(["covered by", function (p) { return p.covered_by || "–"; }],
               ["last seen", function (p) { return p.last_seen; }],
               ["example", function (p) { return p.example; }, "code"]);
    table("paths-table", paths, data.paths);
    table("rules-table", [
      ["rule", ruleLabel, function (r) { return r.hurts ? "hurts" : ""; }], ["kind", function (r) { return r.kind; }],
      ["source", function (r) { return r.source; }], ["actions", function (r) { return r.actions; }],
      ["succeeded", function (r) { return r.succeeded; }], ["failed", function (r) { return r.failed; }],
      ["not captured", function (r) { return r.unknown; }], ["undone", function (r) { return r.undone; }],
      ["prevented", function (r) { return r.prevented; }], ["followed", function (r) { return r.followed; }]
    ], data.rules.concat(data.watched));
  }

  header();
  timeline();
  topPaths();
  rules();
  watched();
  tables();
  document.body.dataset.errors = String(errors.length);
  document.body.dataset.state = "drawn";
})();
