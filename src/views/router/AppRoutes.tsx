import { Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { PUBLIC_ROUTES } from '../../config/paths';
import { selectHasToken, selectIsLoadingSessionData } from '../../machines/session/session.selectors';
import { isResetType } from '../../schemas/user-types';
import { useSession } from '../services';
import { LoadBoundary } from '../shared/LoadBoundary';
import { LoadingOverlay } from '../shared/LoadingOverlay';
import { useDocumentTitle } from '../shared/use-document-title';
import { LoginPage } from '../auth/LoginPage';
import { ShellSkeleton, SkeletonTitle } from '../../lib/shell-skeleton';
import { screenComponent } from './screen-views';
import {
  AccessDeniedPage,
  AuthenticatedShell,
  CustomerAccessPage,
  ErrorPage,
  ForgotPasswordPage,
  LandingPage,
  NotFoundPage,
  PaymentRequiredPage,
  PublicMapPage,
  ResetPasswordPage,
} from './screens';
import { findAuthRoute, safeDecode } from './route-match';
import { useRecordNavigation } from './navigation-record';

/**
 * The route switch of the web app (docs/product.md §2; issue "Foundation"). Public routes first (each with
 * its page title); every other path is looked up in the authenticated route table: unknown →
 * /pages/notfound, no stored token → /auth/login (route guard), else the screen inside AppLayout,
 * which stays mounted while the user moves between authenticated screens. Matching is
 * case-insensitive (the <Router> uses `caseInsensitiveParser`). Only the staff login is bundled
 * here; every other screen is loaded on demand (./screens.ts) behind the loading animation. While
 * the session loads its data after a login, the full-screen loading overlay covers the page.
 */
export function AppRoutes() {
  useRecordNavigation();
  const loadingSessionData = useSession(selectIsLoadingSessionData);
  return (
    <>
      <RouteSwitch />
      {loadingSessionData ? <LoadingOverlay full /> : null}
    </>
  );
}

type PublicRouteKey = keyof typeof PUBLIC_ROUTES;

/**
 * What each public route renders, given its decoded-by-wouter params (docs/product.md §2). A route whose
 * params are invalid may answer a redirect instead of its page.
 */
const PUBLIC_PAGES: Record<PublicRouteKey, (params: Record<string, string | undefined>) => ReactNode> = {
  login: () => <LoginPage />,
  customerLogin: () => <CustomerAccessPage />,
  access: () => <AccessDeniedPage />,
  error: () => <ErrorPage />,
  payment: () => <PaymentRequiredPage />,
  forgot: (params) => {
    const type = safeDecode(params.type ?? '').toLowerCase();
    if (!isResetType(type)) return <Redirect to={PUBLIC_ROUTES.notFound.path} replace />;
    return <ForgotPasswordPage key={type} type={type} />;
  },
  resetPassword: (params) => {
    const token = safeDecode(params.id_encrypted ?? '');
    const type = safeDecode(params.type ?? '').toLowerCase();
    return <ResetPasswordPage key={`${token}/${type}`} token={token} type={type} />;
  },
  notFound: () => <NotFoundPage />,
  landing: () => <LandingPage />,
  publicMap: (params) => <PublicMapPage name={safeDecode(params.name ?? '')} idEncrypted={params.id_encrypted ?? ''} />,
};

/** The public routes (each with its page title), then the authenticated area. */
function RouteSwitch() {
  return (
    <Switch>
      {(Object.keys(PUBLIC_PAGES) as PublicRouteKey[]).map((key) => (
        <Route key={key} path={PUBLIC_ROUTES[key].path}>
          {(params: Record<string, string | undefined>) => <Titled title={PUBLIC_ROUTES[key].title}>{PUBLIC_PAGES[key](params)}</Titled>}
        </Route>
      ))}
      <Route>
        <AuthenticatedArea />
      </Route>
    </Switch>
  );
}

/** Sets the page title (docs/product.md §2) at once and renders the screen, which may still be loading. */
function Titled({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return <LoadBoundary full>{children}</LoadBoundary>;
}

/**
 * Authenticated routes: unknown → not found; no token → login (docs/product.md §2 route guard); else the
 * route's title and the authenticated area (layout and screen, loaded on demand; the shell skeleton
 * meanwhile).
 */
function AuthenticatedArea() {
  const [location] = useLocation();
  const hasToken = useSession(selectHasToken);
  const match = findAuthRoute(location);
  useDocumentTitle(match && hasToken ? match.route.title : null);
  if (!match) return <Redirect to={PUBLIC_ROUTES.notFound.path} replace />;
  if (!hasToken) return <Redirect to={PUBLIC_ROUTES.login.path} replace />;
  // Until the shell's code arrives: the skeleton the server drew (src/lib/shell-skeleton.tsx), with
  // Inicio's own page in it as soon as its small chunk is here (it needs nothing from the shell;
  // drawn at once when the app started with it loaded, src/main.tsx).
  const Home = match.key === 'home' ? screenComponent('home') : null;
  const skeleton = (
    <ShellSkeleton title={match.route.title}>
      {Home ? (
        <Suspense fallback={<SkeletonTitle title={match.route.title} />}>
          <Home params={match.params} />
        </Suspense>
      ) : undefined}
    </ShellSkeleton>
  );
  return (
    <LoadBoundary full fallback={skeleton}>
      <AuthenticatedShell match={match} />
    </LoadBoundary>
  );
}
