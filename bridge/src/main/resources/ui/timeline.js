// The status page's timeline of the rollout: one row per node, grouped by pool, time on the
// x-axis; each phase a bar, each verdict of the node's gates a mark, and on the right where the
// node stands now and which hook holds it. Drawn as SVG from /api/timeline, once a second.
(function () {
  "use strict";
  const COLORS = {
    WAITING: "#dcdcdc", PREPARING: "#b3cde3", PRE_UPDATE_CHECK: "#fdd49e", HELD_PRE_UPDATE: "#d7301f",
    DRAINING: "#8c96c6", APPLYING: "#6a51a3", REBOOTING: "#3f007d", POST_UPDATE_CHECK: "#fdae6b",
    HELD_POST_UPDATE: "#b30000", UNCORDONING: "#9ecae1", DONE: "#74c476", DEGRADED: "#252525",
    POOL_CHECK: "#fdd49e", HELD_POOL: "#d7301f", ROLLING: "#c6dbef"
  };
  const LEGEND = ["WAITING", "PREPARING", "PRE_UPDATE_CHECK", "HELD_PRE_UPDATE", "DRAINING", "APPLYING",
    "REBOOTING", "POST_UPDATE_CHECK", "HELD_POST_UPDATE", "UNCORDONING", "DONE", "DEGRADED"];
  const MARKS = {PASS: "#2b8a3e", FAIL: "#c92a2a", TIMED_OUT: "#e8590c"};
  // Phases at rest are not drawn: a row shows what happened to its node, not that nothing did.
  const AT_REST = {UP_TO_DATE: true, AT_REST: true};
  const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600].map(s => s * 1000);
  const LABEL_W = 170, STATUS_W = 370, AXIS_H = 22;

  function esc(v) {
    return String(v === null || v === undefined ? "" : v).replace(/[&<>"']/g,
      c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c]));
  }
  function cls(v) { return String(v || "").replace(/[^A-Za-z_]/g, ""); }
  function clock(ms) {
    const d = new Date(ms);
    return [d.getHours(), d.getMinutes(), d.getSeconds()].map(n => String(n).padStart(2, "0")).join(":");
  }
  function lasting(ms) {
    const s = Math.round(ms / 1000);
    return s < 120 ? s + " s" : s < 7200 ? Math.round(s / 60) + " min" : (s / 3600).toFixed(1) + " h";
  }
  function blockingText(b, withMessage) {
    return b.hook + " " + b.state + (b.reason ? " " + b.reason : "") + (withMessage && b.message ? ": " + b.message : "");
  }
  function summary(counts, phases) {
    return Object.keys(counts).sort((a, b) => counts[b] - counts[a])
      .map(p => counts[p] + " " + (phases[p] || p).toLowerCase()).join(", ");
  }

  function render(t, root) {
    const width = Math.max(760, root.clientWidth || 1200);
    const chartW = width - LABEL_W - STATUS_W;
    const start = t.start, end = Math.max(t.generatedAt, t.start + 1000);
    const x = ms => LABEL_W + chartW * (Math.min(Math.max(ms, start), end) - start) / (end - start);
    const rowCount = t.groups.reduce((n, g) => n + 1 + g.nodes.length + (Object.keys(g.collapsed).length ? 1 : 0), 0);
    const rowH = t.shown <= 40 ? 20 : 12, font = rowH >= 20 ? 12 : 10, barH = rowH - (rowH >= 20 ? 6 : 3);
    let y = 0;
    const out = [];

    function bars(spans, h, yy) {
      spans.forEach((s, i) => {
        if (AT_REST[s.phase]) { return; }
        const to = i + 1 < spans.length ? spans[i + 1].from : t.generatedAt;
        const x0 = x(s.from), w = Math.max(1.5, x(to) - x0);
        out.push("<rect class='tl-span phase-" + cls(s.phase) + "' data-phase='" + esc(s.phase) + "' x='" + x0.toFixed(1)
          + "' y='" + (yy + (rowH - h) / 2).toFixed(1) + "' width='" + w.toFixed(1) + "' height='" + h
          + "' fill='" + (COLORS[s.phase] || "#999") + "'><title>" + esc(t.phases[s.phase] || s.phase) + " "
          + clock(s.from) + " - " + (i + 1 < spans.length ? clock(to) : "now") + " (" + lasting(to - s.from)
          + ")</title></rect>");
      });
    }
    function marks(list, yy) {
      list.forEach(m => {
        out.push("<circle class='tl-mark outcome-" + cls(m.outcome) + "' data-hook='" + esc(m.hook) + "' cx='"
          + x(m.at).toFixed(1) + "' cy='" + (yy + rowH / 2) + "' r='" + (rowH >= 20 ? 4.5 : 3) + "' fill='"
          + (MARKS[m.outcome] || "#555") + "' stroke='#fff' stroke-width='1'><title>" + esc(m.hook) + " "
          + esc(m.outcome) + (m.reason ? " " + esc(m.reason) : "") + " (" + esc(m.stage) + ") at "
          + clock(m.at) + "</title></circle>");
      });
    }
    function text(cssClass, xx, yy, body, extra) {
      out.push("<text class='" + cssClass + "' x='" + xx + "' y='" + (yy + rowH / 2 + font / 2 - 1) + "' font-size='"
        + font + "'" + (extra || "") + ">" + body + "</text>");
    }

    t.groups.forEach(g => {
      out.push("<g class='tl-pool' data-pool='" + esc(g.pool) + "'>");
      // The pool's own row: its phases as a strip along the bottom, its nodes counted by phase.
      const poolH = rowH + font + 4;
      out.push("<rect x='0' y='" + y + "' width='" + width + "' height='" + poolH + "' fill='#f3f3f3'/>");
      text("tl-pool-name", 4, y, "<tspan font-weight='bold'>" + esc(g.pool || "(no pool)") + "</tspan> "
        + esc(g.label || ""));
      text("tl-pool-counts", LABEL_W + 4, y, esc(summary(g.counts, t.phases)), " fill='#555'");
      const strip = y + poolH - 5 - (rowH - 4) / 2;
      bars(g.spans, 4, strip);
      marks(g.marks, strip);
      out.push("</g>");
      y += poolH;
      g.nodes.forEach(n => {
        out.push("<g class='tl-row" + (n.held ? " held" : "") + "' data-node='" + esc(n.name) + "' data-phase='"
          + esc(n.phase) + "'>");
        text("tl-name", 12, y, esc(n.name) + (n.zone ? " <tspan fill='#777'>" + esc(n.zone) + "</tspan>" : ""));
        bars(n.spans, barH, y);
        marks(n.marks, y);
        // Where it stands now; a held node says which hook holds it, and why.
        const why = n.blocking.map(b => blockingText(b, false)).join("; ");
        const whyInFull = n.blocking.map(b => blockingText(b, true)).join("; ");
        const status = n.held && why
          ? "<tspan class='tl-blocking' fill='#b00' font-weight='bold'>" + esc("held by " + why) + "</tspan>"
          : "<tspan class='phase-label'>" + esc(n.label) + "</tspan>"
            + (why ? " <tspan class='tl-blocking' fill='#a60'>" + esc("waiting on " + why) + "</tspan>" : "");
        text("tl-status", width - STATUS_W + 6, y, status + "<title>" + esc(n.label + (why ? ": " + whyInFull : "")) + "</title>");
        out.push("</g>");
        y += rowH;
      });
      if (Object.keys(g.collapsed).length) {
        const count = Object.values(g.collapsed).reduce((a, b) => a + b, 0);
        out.push("<g class='tl-collapsed' data-pool='" + esc(g.pool) + "' data-count='" + count + "'>");
        text("tl-name", 12, y, esc("+ " + count + " more: " + summary(g.collapsed, t.phases)), " fill='#777'");
        out.push("</g>");
        y += rowH;
      }
    });

    // The time axis, kept above the rows while they scroll.
    const span = end - start;
    const step = STEPS.find(s => chartW * s / span >= 90) || STEPS[STEPS.length - 1];
    const axis = [];
    // Ticks stop short of the end, where "now" is written.
    for (let at = Math.ceil(start / step) * step; x(at) <= LABEL_W + chartW - 80; at += step) {
      const xx = x(at).toFixed(1);
      axis.push("<line x1='" + xx + "' x2='" + xx + "' y1='" + (AXIS_H - 6) + "' y2='" + AXIS_H + "' stroke='#999'/>"
        + "<text x='" + xx + "' y='" + (AXIS_H - 9) + "' font-size='11' text-anchor='middle' fill='#555'>" + clock(at) + "</text>");
      out.unshift("<line class='tl-grid' x1='" + xx + "' x2='" + xx + "' y1='0' y2='" + y + "' stroke='#eee'/>");
    }
    axis.push("<text x='" + (LABEL_W + chartW) + "' y='" + (AXIS_H - 9) + "' font-size='11' text-anchor='end' fill='#555'>now "
      + clock(t.generatedAt) + "</text>");

    const legend = LEGEND.map(p => "<span class='tl-key'><i style='background:" + COLORS[p] + "'></i>"
      + esc(t.phases[p] || p) + "</span>").join("")
      + Object.keys(MARKS).map(o => "<span class='tl-key'><b style='background:" + MARKS[o] + "'></b>verdict "
      + o + "</span>").join("");
    const note = t.shown < t.total ? " <span class='muted'>" + t.shown + " of " + t.total
      + " nodes have a row; the others are counted per pool.</span>" : "";
    root.innerHTML = "<div class='tl-legend'>" + legend + note + "</div>"
      + "<svg class='tl-axis' width='" + width + "' height='" + AXIS_H + "'>" + axis.join("") + "</svg>"
      + "<div class='tl-scroll'><svg class='tl-rows' width='" + width + "' height='" + Math.max(y, rowH)
      + "' data-rows='" + rowCount + "'>" + out.join("") + "</svg></div>";
  }

  async function refresh() {
    const root = document.getElementById("timeline");
    if (!root) { return; }
    try {
      const response = await fetch("/api/timeline", {cache: "no-store"});
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      render(await response.json(), root);
    } catch (e) {
      root.innerHTML = "<p class='muted'>timeline unavailable: " + esc(e.message) + "</p>";
    }
  }
  refresh();
  setInterval(refresh, 1000);
})();
