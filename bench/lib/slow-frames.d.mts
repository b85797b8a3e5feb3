/** Types of slow-frames.mjs (for its test). */
export interface FrameInterval {
  ms: number;
  frameTaskMs: number;
  frameTaskCpuMs: number;
  busyMs: number;
  busyCpuMs: number;
  tasks: number;
  self: Record<string, number>;
}
export interface FrameGroup {
  frames: number;
  meanMs: number;
  frameTaskMs: number;
  frameTaskCpuMs: number;
  busyMs: number;
  busyCpuMs: number;
  selfMs: Record<string, number>;
}
export function frameIntervals(events: readonly object[]): FrameInterval[];
export function summarize(intervals: readonly FrameInterval[], slowMs?: number): { slow: FrameGroup; fast: FrameGroup };
