import { Component, Suspense, type ReactNode } from 'react';
import { Button, NonIdealState } from '@blueprintjs/core';
import { useLocation } from 'wouter';
import { PageLoading } from './PageLoading';

/**
 * Suspense boundary of the screens loaded on demand (performance, issue "Foundation"): a spinner
 * while the chunk loads and, when it cannot be fetched (offline, or a new version was deployed
 * meanwhile), a Spanish message with "Reintentar", which reloads the page. Moving to another
 * route clears the error.
 */
export function LoadBoundary({
  children,
  full = false,
  small = false,
  fallback,
}: {
  children: ReactNode;
  full?: boolean;
  small?: boolean;
  /** What to draw while loading instead of the spinner (the authenticated area's skeleton). */
  fallback?: ReactNode;
}) {
  const [location] = useLocation();
  return (
    <LoadErrorBoundary resetKey={location} full={full}>
      <Suspense fallback={fallback ?? <PageLoading full={full} small={small} />}>{children}</Suspense>
    </LoadErrorBoundary>
  );
}

interface LoadErrorBoundaryProps {
  resetKey: string;
  full: boolean;
  children: ReactNode;
}

/** React error boundaries are class components; this one only tells "could not load". */
class LoadErrorBoundary extends Component<LoadErrorBoundaryProps, { failed: boolean; key: string }> {
  override state = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError(): Partial<{ failed: boolean }> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: LoadErrorBoundaryProps, state: { failed: boolean; key: string }) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey };
  }

  override componentDidCatch(error: unknown): void {
    console.error('[load] a screen could not be loaded:', error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className={this.props.full ? 'page-loading page-loading-full page-load-error' : 'page-loading page-load-error'}>
        <NonIdealState
          icon="error"
          title="No se pudo cargar la página"
          description="Revise su conexión a internet e inténtelo nuevamente."
          action={<Button intent="primary" text="Reintentar" onClick={() => window.location.reload()} />}
        />
      </div>
    );
  }
}
