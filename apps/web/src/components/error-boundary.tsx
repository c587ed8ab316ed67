import { Component, type ErrorInfo, type ReactNode } from "react";

interface ErrorBoundaryProps {
  /** What shows instead of the children once they threw while rendering. */
  fallback: ReactNode;
  /** When one of these changes (a streaming reply grew, another message came), the children are tried again. */
  resetKeys?: readonly unknown[];
  /** Told of each error caught, beside React's own report (to say where it happened). */
  onError?: (error: unknown, info: ErrorInfo) => void;
  children?: ReactNode;
}

interface ErrorBoundaryState {
  failed: boolean;
  keys?: readonly unknown[];
}

const sameKeys = (a: readonly unknown[] = [], b: readonly unknown[] = []) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

/**
 * Keeps an error while rendering a part of the page in that part: the part shows its fallback
 * instead of the whole page giving way to the router's error page. React reports the error
 * (console.error) as it does for every error a boundary catches.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { failed: false, keys: this.props.resetKeys };

  static getDerivedStateFromError(): Partial<ErrorBoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    return sameKeys(props.resetKeys, state.keys) ? null : { failed: false, keys: props.resetKeys };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    this.props.onError?.(error, info);
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
