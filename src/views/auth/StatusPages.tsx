import { StatusPage } from '../shared/StatusPage';

/**
 * Public status screens of docs/product.md §2 (issue "Foundation"): where the global API error rule of docs/product.md §7
 * sends the user (401 → /auth/access, 404 → /auth/error, 402 → /auth/pago) and /pages/notfound.
 */

/** /auth/access — the session is not valid or lacks access (401). */
export function AccessDeniedPage() {
  return (
    <StatusPage
      icon="lock"
      title="Acceso denegado"
      description="Su sesión no es válida o no tiene acceso a este recurso. Inicie sesión nuevamente."
      action={{ text: 'Ir al inicio de sesión', to: '/auth/login' }}
    />
  );
}

/** /auth/error — something went wrong or the resource was not found (404). */
export function ErrorPage() {
  return (
    <StatusPage
      icon="error"
      title="Error"
      description="Algo salió mal o el recurso solicitado no existe."
      action={{ text: 'Volver al inicio', to: '/' }}
    />
  );
}

/** /auth/pago — the company's subscription is pending payment (402). */
export function PaymentRequiredPage() {
  return (
    <StatusPage
      icon="credit-card"
      title="Falta de pago"
      description="La suscripción de la empresa tiene un pago pendiente. Comuníquese con el administrador del sistema."
      action={{ text: 'Ir al inicio de sesión', to: '/auth/login' }}
    />
  );
}

/** /pages/notfound — unknown paths are redirected here. */
export function NotFoundPage() {
  return (
    <StatusPage
      icon="search"
      title="Página no encontrada"
      description="La página que busca no existe o fue movida."
      action={{ text: 'Volver al inicio', to: '/' }}
    />
  );
}
