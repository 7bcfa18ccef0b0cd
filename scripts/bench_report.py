#!/usr/bin/env python3
"""Renders docs/performance.md from one run of scripts/bench.

Reads the Google Benchmark JSON (bench.json), the dd oflag=dsync output, the
`warlog generate` summary, measures peak memory of `warlog audit` in separate
processes (os.wait4's rusage) and the on-disk size of the events database
(mdb_stat), and writes the table: measure | figure | baseline (same run) |
ratio | target | met?. Standard library only.
"""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_commit():
    try:
        out = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True).stdout.strip()
        return out.stdout.strip() + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def peak_rss_mib(cmd):
    """Runs cmd with stdout discarded; returns (max RSS, peak anonymous RSS, both in MiB, exit code).

    Max RSS (the kernel's, from wait4) counts the pages of the memory-mapped store file the
    process has read; the anonymous part (heap, stacks: RssAnon, sampled every millisecond) is
    what the process itself holds."""
    anon = 0
    with open(os.devnull, "w") as devnull:
        p = subprocess.Popen(cmd, stdout=devnull, stderr=devnull)
        while True:
            try:
                with open(f"/proc/{p.pid}/status") as f:
                    for line in f:
                        if line.startswith("RssAnon:"):
                            anon = max(anon, int(line.split()[1]))
            except OSError:
                pass
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid != 0:
                break
            time.sleep(0.001)
    return usage.ru_maxrss / 1024.0, anon / 1024.0, os.waitstatus_to_exitcode(status)


def mdb_pages(store, db):
    out = subprocess.run(["mdb_stat", "-e", "-s", db, store], capture_output=True, text=True, check=True).stdout
    num = lambda key: int(re.search(key + r":\s*(\d+)", out).group(1))
    pages = num("Branch pages") + num("Leaf pages") + num("Overflow pages")
    return pages * num("Page size"), num("Entries")


def dd_rate(path):
    """Synced writes per second and MB/s from dd's summary line."""
    text = open(path).read()
    m = re.search(r"(\d+) bytes .* copied, ([\d.]+) s", text)
    n = re.search(r"(\d+)\+\d+ records out", text)
    if not m or not n:
        return None, None
    secs = float(m.group(2))
    return int(n.group(1)) / secs, int(m.group(1)) / secs / 1e6


def fmt_num(x, unit=""):
    if x is None:
        return "n/a"
    if x >= 100:
        s = f"{x:,.0f}"
    elif x >= 10:
        s = f"{x:.1f}"
    else:
        s = f"{x:.3g}"
    return s + (" " + unit if unit else "")


def load_runs(path):
    """Google Benchmark JSON as {name: run}, {} when the file is missing."""
    if not os.path.exists(path):
        return {}
    bench = json.load(open(path))
    return {b["name"].split("/iterations:")[0].split("/real_time")[0]: b for b in bench.get("benchmarks", [])}


def viewer_table(viewer, disputed, memory_path, long_events, seeker, both):
    """Rows of the viewer's table: measure | quiet | disputed | target | met?."""
    memory = {}
    if os.path.exists(memory_path):
        for line in open(memory_path):
            line = line.strip()
            if line.startswith("{"):
                m = json.loads(line)
                memory["disputed" if m["store"].rstrip("/").endswith("long_disputed") else "quiet"] = m
    rows = []

    def latency(run):
        if not run or run.get("p99_ms") is None:
            return "n/a", None, None
        return (f"p99 {fmt_num(run['p99_cpu_ms'], 'ms')} on-CPU, {fmt_num(run['p99_ms'], 'ms')} wall "
                f"(p50 {fmt_num(run['p50_ms'], 'ms')}, max {fmt_num(run['max_ms'], 'ms')})"), run["p99_cpu_ms"], run["p99_ms"]

    def verdicts(*pairs):
        seen = [both(c, w, 16.0) for c, w in pairs if c is not None]
        if not seen:
            return "n/a"
        if all(v == "yes" for v in seen):
            return "yes"
        return "**no**" if "**no**" in seen else "yes on-CPU; **no** on the wall clock"

    for name, what in [("window_step_end", "window: step (Left/Right) at the last events"),
                       ("window_jump_random", "window: jump to a random seq (Ctrl+G, a click)"),
                       ("window_next_phase", "window: next phase (PgDn) from random places"),
                       ("session_step_end", "`GameSession` alone: step at the last events"),
                       ("session_jump_random", "`GameSession` alone: jump to a random seq")]:
        q, qc, qw = latency(viewer.get("viewer/" + name))
        d, dc, dw = latency(disputed.get("viewer/" + name))
        rows.append((what + f", {fmt_num(long_events)}-event game", q, d, "≤ 16 ms", verdicts((qc, qw), (dc, dw))))

    def with_findings(run):
        """A run's mean time, and the findings of the game it ran on."""
        if not run:
            return "n/a"
        return f"{fmt_num(run['real_time'], 'ms')} ({fmt_num(run.get('findings'), 'findings')})"
    for name, what in [("window_sort_findings",
                        "sort the \"All findings\" table by a column (Rule, Message or Seq; mean of 3)"),
                       ("open_game",
                        "open the game: the survey's one fold (findings, outline, figures), then the first moment")]:
        rows.append((what, with_findings(viewer.get("viewer/" + name)), with_findings(disputed.get("viewer/" + name)),
                     "", "n/a"))

    store = viewer.get("viewer/open_store")
    if store:
        games = store.get("games", 0)
        ms = store["real_time"]
        met = (ms <= 500) if games >= 10000 else "n/a (fewer than 10,000 games in quick mode)"
        rows.append((f"open a store of {fmt_num(games)} games (window listed and painted)", fmt_num(ms, "ms"), "",
                     "≤ 500 ms for 10,000 games", met if isinstance(met, str) else ("yes" if met else "**no**")))

    def mem(m):
        if not m:
            return "n/a", None
        return (f"{fmt_num(m['rss_mib'] * 1.048576, 'MB')} RSS: {fmt_num(m['rss_anon_mib'] * 1.048576, 'MB')} "
                f"anonymous + {fmt_num(m['rss_file_mib'] * 1.048576, 'MB')} mapped store and libraries; findings "
                f"list {fmt_num(m['findings_heap_mib'] * 1.048576, 'MB')} for {fmt_num(m['findings'])}"), m["rss_mib"] * 1.048576
    q, qm = mem(memory.get("quiet"))
    d, dm = mem(memory.get("disputed"))
    ok = [x for x in (qm, dm) if x is not None]
    rows.append(("memory: the window open at the game's end after 200 steps (VmRSS)", q, d, "≤ 200 MB",
                 ("yes" if all(x <= 200 for x in ok) else "**no**") if ok else "n/a"))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--warlog", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    bench = json.load(open(os.path.join(a.results, "bench.json")))
    runs = {b["name"].split("/iterations:")[0].split("/real_time")[0]: b for b in bench["benchmarks"]}

    def rate(name):
        b = runs.get(name)
        return b.get("items_per_second") if b else None

    def secs(name):
        b = runs.get(name)
        if not b:
            return None
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
        return b["real_time"] * scale

    def cpu_rate(name):
        """Items per second of this thread's CPU time (Google Benchmark's cpu_time): for
        one-thread figures, what the code does whatever else the machine runs."""
        b = runs.get(name)
        if not b or not b.get("items_per_second") or not b.get("cpu_time"):
            return None
        return b["items_per_second"] * b["real_time"] / b["cpu_time"]

    def cpu_rate_cpu(name):
        """Items per CPU second of a benchmark timed on CPU time (no UseRealTime)."""
        b = runs.get(name)
        return b.get("items_per_second") if b else None

    def counter(name, key):
        b = runs.get(name)
        return b.get(key) if b else None

    rows = []

    def row(measure, figure, baseline, ratio, target, met):
        if isinstance(met, str):
            verdict = met
        else:
            verdict = "yes" if met else ("**no**" if met is not None else "n/a")
        rows.append((measure, figure, baseline, ratio, target, verdict))

    def both(cpu, wall, limit):
        """A latency target judged on-CPU and on the wall clock (the machine is shared)."""
        if cpu is None or wall is None:
            return None
        if wall <= limit:
            return "yes"
        return "yes on-CPU; **no** on the wall clock" if cpu <= limit else "**no**"

    # 1. Batched import.
    imp, raw = rate("import/batch"), rate("import/raw_lmdb")
    row("batched import into LMDB (`Store::import_games`, one txn, one sync)",
        fmt_num(imp, "events/s"), fmt_num(raw, "events/s") + " raw `mdb_put` of the same bytes",
        f"{imp / raw:.2f}×" if imp and raw else "n/a", "≥ 1,000,000 events/s", imp is not None and imp >= 1e6)

    # 2. Durable append.
    dd_writes, dd_mbs = dd_rate(os.path.join(a.results, "dd.txt"))
    app = rate("append/durable")
    row("durable single-event append (`Durability::Sync`)", fmt_num(app, "appends/s"),
        f"{fmt_num(dd_writes, 'writes/s')} `dd bs=4k oflag=dsync` ({fmt_num(dd_mbs, 'MB/s')})",
        f"{app / dd_writes:.2f}×" if app and dd_writes else "n/a", "reported beside the disk's rate", None)

    # 3. Fold + audit, one thread.
    aud, dec, scan = cpu_rate("audit/one_thread"), cpu_rate("audit/decode_only"), cpu_rate("audit/raw_scan")
    games = counter("audit/one_thread", "games")
    row(f"fold + audit from the store, one thread ({fmt_num(games)} generated games; per CPU second, "
        f"wall {fmt_num(rate('audit/one_thread'), 'events/s')})", fmt_num(aud, "events/s"),
        fmt_num(scan, "events/s") + " raw cursor scan of the same values",
        f"{aud / scan:.3f}×" if aud and scan else "n/a", "≥ 5,000,000 events/s", aud is not None and aud >= 5e6)
    la, ls = cpu_rate("audit/long_game"), cpu_rate("audit/long_game_raw_scan")
    row(f"fold + audit of the long game, one thread (per CPU second, wall {fmt_num(rate('audit/long_game'), 'events/s')})",
        fmt_num(la, "events/s"), fmt_num(ls, "events/s") + " raw cursor scan", f"{la / ls:.3f}×" if la and ls else "n/a",
        "≥ 5,000,000 events/s", la is not None and la >= 5e6)

    # 4. Seek.
    p99, p50 = counter("seek/random", "p99_ms"), counter("seek/random", "p50_ms")
    p99c = counter("seek/random", "p99_cpu_ms")
    refold = secs("seek/full_refold")
    long_events = None
    if runs.get("seek/full_refold"):
        long_events = rate("seek/full_refold") * refold if refold else None
    row(f"seek to a random seq, {fmt_num(long_events)}-event game (p50 {fmt_num(p50, 'ms')} wall)",
        f"p99 {fmt_num(p99c, 'ms')} on-CPU, {fmt_num(p99, 'ms')} wall",
        f"{fmt_num(refold * 1e3 if refold else None, 'ms')} full refold to the end",
        f"{p99c / (refold * 1e3):.5f}× on-CPU" if p99c and refold else "n/a", "p99 ≤ 1 ms",
        both(p99c, p99, 1.0))

    # 5. Archive audit on two threads.
    arch, arch_raw = secs("archive/audit_2_threads"), secs("archive/raw_scan_2_threads")
    arch_games = counter("archive/audit_2_threads", "games")
    arch_rate = rate("archive/audit_2_threads")
    arch_cpu = counter("archive/audit_2_threads", "cpu_s")
    scaled = arch * 100000 / arch_games if arch and arch_games else None
    per = 100000 / arch_games if arch_games else 1
    if arch is None:
        target_met = None
    elif arch * per <= 30:
        target_met = True
    elif arch_cpu and arch_cpu / 2 * per <= 30:
        target_met = "yes on-CPU (CPU s ÷ 2); **no** on the wall clock"
    else:
        target_met = False
    row(f"archive audit of {fmt_num(arch_games)} games on 2 threads ({fmt_num(arch_rate, 'events/s')} wall)",
        fmt_num(arch, "s") + " wall, " + fmt_num(arch_cpu, "CPU s") +
        (f" (→ {fmt_num(scaled, 's')} per 100,000)" if arch_games and arch_games < 100000 else ""),
        fmt_num(arch_raw, "s") + " raw cursor scan, 2 threads",
        f"{arch / arch_raw:.1f}×" if arch and arch_raw else "n/a", "≤ 30 s for 100,000 games", target_met)

    # 6. Peak memory (separate processes).
    long_store = os.path.join(a.data, "long")
    archive_store = os.path.join(a.data, "archive")
    peak, peak_anon, rc1 = peak_rss_mib([a.warlog, "audit", "--store", long_store, "--game", "1"])
    small, small_anon, rc2 = peak_rss_mib([a.warlog, "audit", "--store", archive_store, "--game", "1"])
    if peak * 1.048576 <= 100:
        mem_met = True
    elif peak_anon * 1.048576 <= 100:
        mem_met = "yes for the process's own memory; **no** counting mapped file pages"
    else:
        mem_met = False
    row(f"peak memory, `warlog audit` of the {fmt_num(long_events)}-event game "
        "(max RSS; anonymous = heap and stacks, the rest is pages of the mapped store file)",
        f"{fmt_num(peak, 'MiB')} ({fmt_num(peak_anon, 'MiB')} anonymous)",
        f"{fmt_num(small, 'MiB')} ({fmt_num(small_anon, 'MiB')} anonymous), the same command on one 12-turn game",
        f"{peak / small:.2f}× ({peak_anon / small_anon:.2f}× anonymous)" if small and small_anon else "n/a",
        "≤ 100 MB", mem_met)

    # 7. Bytes per event: the events database's pages over the events its
    # blocks hold (format 2: an entry is a block of up to 64 events).
    disk, entries = mdb_pages(archive_store, "events")
    packed = counter("bytes/per_event", "packed_bytes_per_event")
    jsonl = counter("bytes/per_event", "jsonl_bytes_per_event")
    events_stored = counter("bytes/per_event", "archive_events") or entries
    per_event = disk / events_stored
    parts = {k: counter("bytes/per_event", k) for k in ("value_bytes_per_event", "header_tag_bytes_per_event",
                                                         "stored_body_bytes_per_event", "raw_body_bytes_per_event",
                                                         "key_bytes_per_event", "zstd_ratio")}
    made_of = ""
    if parts["value_bytes_per_event"]:
        made_of = (f"; of which values {fmt_num(parts['value_bytes_per_event'], 'B')}: zstd bodies "
                   f"{fmt_num(parts['stored_body_bytes_per_event'], 'B')} (raw {fmt_num(parts['raw_body_bytes_per_event'], 'B')}, "
                   f"{fmt_num(parts['zstd_ratio'])}× in compressed blocks), header and tags "
                   f"{fmt_num(parts['header_tag_bytes_per_event'], 'B')}; keys {fmt_num(parts['key_bytes_per_event'], 'B')}; "
                   f"the rest is LMDB's nodes and page slack")
    row(f"store bytes per event, compressed (events database pages ÷ events, {fmt_num(events_stored)} events in "
        f"{fmt_num(entries)} blocks{made_of})",
        fmt_num(per_event, "B"), fmt_num(jsonl, "B") + " JSON Lines (`warlog export --format json`)",
        f"{per_event / jsonl:.2f}×" if jsonl else "n/a", "≤ 45 B", per_event <= 45)

    # 7b. The raw read of the layout, decompression and chain check included,
    # beside issue 20's fixed reference (format 1's raw cursor scan).
    row("raw read of store format 2 (`Reader::scan_raw`: cursor, zstd decompression, chain check, each byte "
        "touched), one thread, per CPU second", fmt_num(scan, "events/s"),
        "format 1's raw cursor scan: 557 instructions/event (issue 20's fixed reference, callgrind)", "n/a",
        "reported", None)

    # 7c. Import from notation, each catalog and ruleset parsed once per run.
    inote, ibefore = cpu_rate_cpu("import/notation"), cpu_rate_cpu("import/notation_parse_each")
    row(f"import from notation (`Archive::import_files`, {fmt_num(counter('import/notation', 'files'))} exported "
        "games, 256 a batch; per CPU second)", fmt_num(inote, "events/s"),
        fmt_num(ibefore, "events/s") + " the same files, catalog and ruleset parsed for each (before)",
        f"{inote / ibefore:.2f}×" if inote and ibefore else "n/a", "≥ 1,000,000 events/s",
        inote is not None and inote >= 1e6)

    # 8. Viewer step: the window itself (warlog_viewer_bench), beside the
    # replay Seeker step it is built on.
    viewer = load_runs(os.path.join(a.results, "viewer.json"))
    disputed = load_runs(os.path.join(a.results, "viewer_disputed.json"))
    sp99c = counter("step/end", "p99_cpu_ms")
    wp99, wp50, wp99c = (viewer.get("viewer/window_step_end", {}).get(k) for k in ("p99_ms", "p50_ms", "p99_cpu_ms"))
    row(f"viewer step at the end of the {fmt_num(long_events)}-event game (`warlog_viewer_bench`: the window's "
        f"step, settled and painted offscreen; p50 {fmt_num(wp50, 'ms')} wall)",
        f"p99 {fmt_num(wp99c, 'ms')} on-CPU, {fmt_num(wp99, 'ms')} wall",
        f"p99 {fmt_num(sp99c, 'ms')} on-CPU, the replay Seeker's step alone",
        f"{wp99c / sp99c:.0f}× on-CPU" if wp99c and sp99c else "n/a", "≤ 16 ms", both(wp99c, wp99, 16.0))

    # 9. Hostile notation lines: the lexer is linear, an overlong line is refused unread.
    def cpu_secs(name):
        """This thread's CPU seconds per iteration: on a shared machine the wall clock measures the others."""
        b = runs.get(name)
        if not b or b.get("cpu_time") is None:
            return None
        return b["cpu_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]

    lex = {m: cpu_secs(f"notation/lex_line/{m}MiB") for m in (1, 2, 4)}
    ms = lambda x: fmt_num(x * 1e3 if x is not None else None, "ms")
    linear = lex[1] is not None and lex[4] is not None
    row("lex one long line of tokens (`notation/lex_line`, 1, 2 and 4 MiB, CPU time; was quadratic: 1 MB took 6 s)",
        ", ".join(f"{m} MiB {ms(lex[m])}" for m in (1, 2, 4)), f"{ms(lex[1])} for 1 MiB",
        f"{lex[4] / lex[1]:.2f}× for 4× the bytes" if linear else "n/a", "linear: 4 MiB ≤ 5× 1 MiB",
        lex[4] <= 5 * lex[1] if linear else None)
    refuse = {m: cpu_secs(f"notation/parse_long_line/{m}MiB") for m in (1, 2, 4)}
    row("parse a game holding one 1, 2 or 4 MiB line (`notation/parse_long_line`, CPU time: refused with its "
        "line:col, only 64 KiB of it read)", ", ".join(f"{m} MiB {ms(refuse[m])}" for m in (1, 2, 4)),
        f"{ms(lex[4])} to lex the 4 MiB line",
        f"{refuse[4] / refuse[1]:.2f}× from 1 to 4 MiB" if refuse[4] and refuse[1] else "n/a",
        "flat: 4 MiB ≤ 2× 1 MiB (the line is not lexed)",
        refuse[4] <= 2 * refuse[1] if refuse[4] and refuse[1] else None)

    # 10. Recording (issue 16): one line through replay::Recorder (parse, fold on a copy,
    # synced append, findings) beside LMDB's own synced commit of one small value.
    rp99, rp50 = counter("record/line", "p99_ms"), counter("record/line", "p50_ms")
    lp99, lp50 = counter("record/lmdb_synced_put", "p99_ms"), counter("record/lmdb_synced_put", "p50_ms")
    row(f"a recorded line, append and audit (`Recorder::enter`: parse, fold, `Durability::Sync` append, "
        f"findings; p50 {fmt_num(rp50, 'ms')})", f"p99 {fmt_num(rp99, 'ms')} wall",
        f"p99 {fmt_num(lp99, 'ms')} (p50 {fmt_num(lp50, 'ms')}) LMDB's own synced commit of one 100-byte value",
        f"+{rp99 - lp99:.2f} ms" if rp99 is not None and lp99 is not None else "n/a", "p99 ≤ LMDB's + 1 ms",
        rp99 <= lp99 + 1.0 if rp99 is not None and lp99 is not None else None)
    cp99, cp99c = counter("record/complete", "p99_ms"), counter("record/complete", "p99_cpu_ms")
    row("completion at the record prompt (`Recorder::complete`, 8 prefixes mid-game)",
        f"p99 {fmt_num(cp99c, 'ms')} on-CPU, {fmt_num(cp99, 'ms')} wall", "", "", "p99 ≤ 10 ms", both(cp99c, cp99, 10.0))

    viewer_rows = viewer_table(viewer, disputed, os.path.join(a.results, "viewer_memory.jsonl"), long_events,
                               runs.get("step/end", {}), both)

    gen = open(os.path.join(a.data, "generate.txt")).read()
    wall = re.search(r"wall ([\d.]+) ([\d.]+)", gen)
    gen_line = gen.splitlines()[0] if gen else ""

    ctx = bench.get("context", {})
    lines = []
    lines.append("# warlog performance\n")
    lines.append("Written by `scripts/bench" + (" --quick" if a.mode == "quick" else "") + "`; do not edit the "
                 "table by hand, run the script. Every ratio is measured in the same run as its baseline. "
                 "Times are wall-clock on a machine shared with other builds: they are lower bounds on speed.\n")
    if a.mode == "quick":
        lines.append("**Quick mode**: smaller sizes (a 100,000-event game, 2,000 games); figures are not "
                     "comparable with the targets one to one. Run `scripts/bench` for the real figures.\n")
    lines.append("## Machine and run\n")
    lines.append(f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}")
    lines.append(f"- commit: {git_commit()}")
    lines.append(f"- cores: {os.cpu_count()} (`nproc`), CPU: {cpu_model()}")
    lines.append(f"- load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    lines.append(f"- build: Release (`cmake --preset release`), Google Benchmark {ctx.get('library_version', '')}"
                 .rstrip())
    lines.append(f"- mode: {a.mode}")
    if wall:
        lines.append(f"- data: `warlog generate --store … --games N` took "
                     f"{float(wall.group(2)) - float(wall.group(1)):.1f} s: {gen_line}")
    lines.append("")
    lines.append("## Figures\n")
    lines.append("| measure | figure | baseline (same run) | ratio | target | met? |")
    lines.append("|---|---|---|---|---|---|")
    for r in rows:
        lines.append("| " + " | ".join(str(c) for c in r) + " |")
    lines.append("")
    lines.append("## The viewer\n")
    lines.append("The viewer's own targets (issue 7: stepping and jumping under 16 ms anywhere in a "
                 "1,000,000-event game, a store of 10,000 games open in under half a second, under 200 MB), "
                 "measured by `warlog_viewer_bench` in the same run: its `GameSession`, and its `MainWindow` at "
                 "1280×800 under the offscreen platform, each move timed until the window has taken it "
                 "(`processEvents`: models, battlefield, charts, a paint). The disputed game is the same length "
                 "with rules broken all through it (bench/data.cpp), so its findings list is long.\n")
    lines.append("| measure | quiet long game | disputed long game | target | met? |")
    lines.append("|---|---|---|---|---|")
    for r in viewer_rows:
        lines.append("| " + " | ".join(str(c) for c in r) + " |")
    lines.append("")
    lines.append("Other figures of the same run: decode only (cursor + Cap'n Proto into `core::Event`, no fold) "
                 f"{fmt_num(dec, 'events/s')}; seek p50 {fmt_num(p50, 'ms')}, max "
                 f"{fmt_num(counter('seek/random', 'max_ms'), 'ms')}; long-game audit findings "
                 f"(violations) {fmt_num(counter('audit/long_game', 'violations'))}; peak-memory runs exit "
                 f"codes {rc1} and {rc2} (1 = violations found, 0 = clean).\n")
    notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "performance-notes.md")
    if os.path.exists(notes):
        lines.append(open(notes).read().rstrip() + "\n")
    with open(a.out, "w") as f:
        f.write("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
