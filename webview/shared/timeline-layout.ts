import type { CallRecord } from '../../runtime/protocol/run-result.js';

export interface TimelineBar {
  call: CallRecord;
  lane: number;
  // position on the run's time axis, 0..1
  start: number;
  width: number;
}

export interface TimelineLayout {
  bars: TimelineBar[];
  lanes: number;
  // the axis length: from hand-over to the run's end, or to the last call's end if later
  spanMs: number;
  // where the axis starts on the run's clock: the program's hand-over (process start-up is left out)
  originMs: number;
  ticks: { ms: number; at: number }[];
}

// Places calls on the program's time axis, from hand-over (`originMs`, the process start-up before it is left out) to
// the run's end; overlapping (concurrent) calls get separate lanes, first-fit by start time.
export function layoutTimeline(calls: readonly CallRecord[], durationMs: number, handOverMs = 0): TimelineLayout {
  let originMs = Math.max(0, Math.min(handOverMs, durationMs));
  for (const call of calls) originMs = Math.min(originMs, call.startedAtMs);
  let spanMs = durationMs - originMs;
  for (const call of calls) spanMs = Math.max(spanMs, call.startedAtMs + call.durationMs - originMs);
  if (!(spanMs > 0)) spanMs = 1;
  const order = [...calls].sort((a, b) => a.startedAtMs - b.startedAtMs || a.id - b.id);
  const laneEnds: number[] = [];
  const bars: TimelineBar[] = [];
  for (const call of order) {
    const end = call.startedAtMs + call.durationMs;
    let lane = laneEnds.findIndex((laneEnd) => laneEnd <= call.startedAtMs);
    if (lane === -1) {
      lane = laneEnds.length;
      laneEnds.push(end);
    } else laneEnds[lane] = end;
    bars.push({ call, lane, start: (call.startedAtMs - originMs) / spanMs, width: call.durationMs / spanMs });
  }
  return { bars, lanes: laneEnds.length, spanMs, originMs, ticks: niceTicks(spanMs) };
}

// Four to eight round-numbered ticks (1, 2, 5 × 10^n ms) across the span.
export function niceTicks(spanMs: number): { ms: number; at: number }[] {
  const rough = spanMs / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => spanMs / s <= 8) ?? power * 10;
  const ticks: { ms: number; at: number }[] = [];
  for (let ms = 0; ms <= spanMs + 1e-9; ms += step) ticks.push({ ms, at: ms / spanMs });
  return ticks;
}
