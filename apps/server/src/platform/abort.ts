/**
 * An AbortController that its sources' aborts also abort, until `release()`. It stands in for
 * `AbortSignal.any` where a source lives long: on Node 20 a composite signal leaves a weak
 * reference in every source for good, so a process-long signal (the platform's `stopping`) gathers
 * one per reply. Here a source holds one listener (this object, no closure) until released.
 */
export class LinkedAbortController extends AbortController {
  constructor(private readonly sources: AbortSignal[]) {
    super();
    for (const source of sources) {
      if (source.aborted) this.abort(source.reason);
      else source.addEventListener("abort", this, { once: true });
    }
  }

  handleEvent(event: Event) {
    this.abort((event.target as AbortSignal).reason);
  }

  /** Unlinks from the sources: call it once done, or a long-lived source keeps this. */
  release() {
    for (const source of this.sources) source.removeEventListener("abort", this);
  }
}
