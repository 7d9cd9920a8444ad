/**
 * A gas profile: every milligas a meter charges, attributed to the call frame it was charged in
 * (the top level of the code, a user function, a capability's acquisition, a defpact, a native),
 * as a tree of frames with the calls, self and total milligas of each. The evaluator enters and
 * leaves frames only while a profiler is attached (`Runtime.profiler`), and the meter hands it
 * each charge as it would a gas log (`PactGasMeter.recorder`); without one neither does any work.
 * A profile is plain data.
 */

/** What a frame of the profile stands for. */
export type GasFrameKind =
  /** The whole transaction (the root a node makes, src/node/executor/profile-job.ts). */
  | "transaction"
  /** A charge of the transaction itself: its size, its gas purchase, rounding. */
  | "charge"
  /** The top level of the command's code (or its continuation). */
  | "top-level"
  | "function"
  /** Acquiring a capability: its defcap's body and, for a managed one, its manager. */
  | "capability"
  | "defpact"
  | "native";

/** One frame of a finished profile. Milligas: a thousandth of a unit of gas. */
export interface GasProfileFrame {
  readonly kind: GasFrameKind;
  /** `module.function`, `module.CAPABILITY`, a native's name, or what a charge is for. */
  readonly name: string;
  /** How many times it was entered from its parent frame (1 for the root and charges). */
  readonly calls: number;
  /** Milligas charged in this frame and none of its children. */
  readonly selfMilligas: number;
  /** Milligas charged in this frame and all of its children. */
  readonly totalMilligas: number;
  /** Its children, in the order they were first entered. */
  readonly children: readonly GasProfileFrame[];
}

/** Receives every charge of a meter (the gas log, a profiler). */
export interface ChargeRecorder {
  record(milligas: number, what: string): void;
}

interface OpenFrame {
  readonly kind: GasFrameKind;
  readonly name: string;
  readonly parent: OpenFrame | null;
  calls: number;
  self: number;
  /** Children by kind and name: calls of the same function from one frame share a frame. */
  readonly children: Map<string, OpenFrame>;
}

function openFrame(kind: GasFrameKind, name: string, parent: OpenFrame | null): OpenFrame {
  return { kind, name, parent, calls: 1, self: 0, children: new Map() };
}

export class GasProfiler implements ChargeRecorder {
  private readonly root: OpenFrame;
  private current: OpenFrame;

  constructor(kind: GasFrameKind, name: string) {
    this.root = openFrame(kind, name, null);
    this.current = this.root;
  }

  /** Enters the frame `kind name` below the current one (one more call of it if it exists). */
  enter(kind: GasFrameKind, name: string): void {
    const key = `${kind} ${name}`;
    const parent = this.current;
    const found = parent.children.get(key);
    if (found !== undefined) {
      found.calls++;
      this.current = found;
      return;
    }
    const frame = openFrame(kind, name, parent);
    parent.children.set(key, frame);
    this.current = frame;
  }

  /** Leaves the current frame (every `enter` is paired with one, also when the frame throws). */
  exit(): void {
    this.current = this.current.parent ?? this.root;
  }

  record(milligas: number): void {
    this.current.self += milligas;
  }

  /** A charge of `milligas` made outside the evaluator, as a frame of its own below the current. */
  add(kind: GasFrameKind, name: string, milligas: number): void {
    this.enter(kind, name);
    this.record(milligas);
    this.exit();
  }

  /** Milligas recorded so far, in every frame. */
  totalMilligas(): number {
    return totalOf(this.root);
  }

  /** The profile as plain data. */
  profile(): GasProfileFrame {
    return finish(this.root);
  }
}

function totalOf(frame: OpenFrame): number {
  let total = frame.self;
  for (const child of frame.children.values()) total += totalOf(child);
  return total;
}

function finish(frame: OpenFrame): GasProfileFrame {
  const children = [...frame.children.values()].map(finish);
  const totalMilligas = children.reduce((sum, child) => sum + child.totalMilligas, frame.self);
  return {
    kind: frame.kind,
    name: frame.name,
    calls: frame.calls,
    selfMilligas: frame.self,
    totalMilligas,
    children,
  };
}
