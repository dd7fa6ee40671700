import type { ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { PUBLIC_ROUTES } from '../../config/paths';
import { hasPermissions, selectHasToken, selectPermissions } from '../../machines/session/session.selectors';
import { resetTypeSchema } from '../../schemas/session';
import { useSession } from '../services';
import { useDocumentTitle } from '../shared/use-document-title';
import { LoginPage } from '../auth/LoginPage';
import { CustomerAccessPage } from '../auth/CustomerAccessPage';
import { ForgotPasswordPage } from '../auth/ForgotPasswordPage';
import { ResetPasswordPage } from '../auth/ResetPasswordPage';
import { AccessDeniedPage, ErrorPage, NotFoundPage, PaymentRequiredPage } from '../auth/StatusPages';
import { LandingPage } from '../landing/LandingPage';
import { PublicMapPage } from '../mapa/PublicMapPage';
import { AppLayout } from '../shell/AppLayout';
import { HomePage } from '../inicio/HomePage';
import { ModulePlaceholder, NoPermission } from '../shared/ModulePlaceholder';
import { findAuthRoute, safeDecode, type AuthRouteMatch } from './route-match';

/**
 * The route switch of the web app (SPEC §2; issue "Foundation"). Public routes first (each with
 * its page title); every other path is looked up in the authenticated route table: unknown →
 * /pages/notfound, no stored token → /auth/login (route guard), else the screen inside AppLayout,
 * which stays mounted while the user moves between authenticated screens. Matching is
 * case-insensitive (the <Router> uses `caseInsensitiveParser`).
 */
export function AppRoutes() {
  const R = PUBLIC_ROUTES;
  return (
    <Switch>
      <Route path={R.login.path}>
        <Titled title={R.login.title}>
          <LoginPage />
        </Titled>
      </Route>
      <Route path={R.customerLogin.path}>
        <Titled title={R.customerLogin.title}>
          <CustomerAccessPage />
        </Titled>
      </Route>
      <Route path={R.access.path}>
        <Titled title={R.access.title}>
          <AccessDeniedPage />
        </Titled>
      </Route>
      <Route path={R.error.path}>
        <Titled title={R.error.title}>
          <ErrorPage />
        </Titled>
      </Route>
      <Route path={R.payment.path}>
        <Titled title={R.payment.title}>
          <PaymentRequiredPage />
        </Titled>
      </Route>
      <Route path={R.forgot.path}>
        {(params) => {
          const type = resetTypeSchema.safeParse(safeDecode(params.type ?? '').toLowerCase());
          if (!type.success) return <Redirect to={R.notFound.path} replace />;
          return (
            <Titled title={R.forgot.title}>
              <ForgotPasswordPage key={type.data} type={type.data} />
            </Titled>
          );
        }}
      </Route>
      <Route path={R.resetPassword.path}>
        {(params) => {
          const token = safeDecode(params.id_encrypted ?? '');
          const type = safeDecode(params.type ?? '').toLowerCase();
          return (
            <Titled title={R.resetPassword.title}>
              <ResetPasswordPage key={`${token}/${type}`} token={token} type={type} />
            </Titled>
          );
        }}
      </Route>
      <Route path={R.notFound.path}>
        <Titled title={R.notFound.title}>
          <NotFoundPage />
        </Titled>
      </Route>
      <Route path={R.landing.path}>
        <Titled title={R.landing.title}>
          <LandingPage />
        </Titled>
      </Route>
      <Route path={R.publicMap.path}>
        {(params) => (
          <Titled title={R.publicMap.title}>
            <PublicMapPage name={safeDecode(params.name ?? '')} />
          </Titled>
        )}
      </Route>
      <Route>
        <AuthenticatedArea />
      </Route>
    </Switch>
  );
}

/** Sets the page title (SPEC §2) and renders the screen. */
function Titled({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return <>{children}</>;
}

/** Authenticated routes: unknown → not found; no token → login (SPEC §2 route guard). */
function AuthenticatedArea() {
  const [location] = useLocation();
  const hasToken = useSession(selectHasToken);
  const match = findAuthRoute(location);
  if (!match) return <Redirect to={PUBLIC_ROUTES.notFound.path} replace />;
  if (!hasToken) return <Redirect to={PUBLIC_ROUTES.login.path} replace />;
  return (
    <AppLayout>
      <AuthScreen key={match.key} match={match} />
    </AppLayout>
  );
}

/** One authenticated screen: its title, the permission check (SPEC §6) and its content. */
function AuthScreen({ match }: { match: AuthRouteMatch }) {
  const permissions = useSession(selectPermissions);
  useDocumentTitle(match.route.title);
  if (!hasPermissions(permissions, match.route.permissions)) return <NoPermission route={match.route} />;
  if (match.key === 'home') return <HomePage />;
  return <ModulePlaceholder route={match.route} />;
}
