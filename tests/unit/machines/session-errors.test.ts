/**
 * The global 401/404/402 rule for every call of the session and the shell (docs/product.md §7 "Every response
 * passes a global check: 401 → /auth/access, 404 → /auth/error, 402 → /auth/pago", §8; issue 12
 * item 2). One test per call, end to end: the app's services (createAppServices) with the real api
 * modules and the real client over a fake server (tests/unit/support/fake-server.ts), so the
 * answer travels through the one mechanism the app uses — the client's `onSessionError` hook →
 * `session.apiError` — and not through a per-machine path.
 *
 * "Ends the session exactly as the spec says" = the session is `redirected`, every docs/product.md §3 key is
 * cleared, and the user is sent to /auth/access (whose page reads "Acceso denegado", see
 * tests/views/session-errors.test.tsx), with no toast of the failed action over it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromCallback, waitFor } from 'xstate';
import { createAppServices } from '../../../src/app-services';
import { ApiError } from '../../../src/api/client';
import type { RealtimeEvent, RealtimeInput } from '../../../src/machines/realtime/realtime.machine';
import { NOT_SAVED_TOAST } from '../../../src/machines/theme/theme.machine';
import { readStorage } from '../../../src/lib/storage';
import { readStoredSession } from '../../../src/machines/session/stored-session';
import { TOKEN, memoryStore, seedSession } from '../support/fakes';
import { CALLS, SESSION_ERROR_ANSWERS, fakeServer, type CallNumber, type FakeAnswer } from '../support/fake-server';

const login = { type: 'session.login', user: '45678912', password: 'secreto123', user_type: 'COLLABORATOR' } as const;

/**
 * The app's services over a fake server whose `call` answers `answer`; `restored` seeds a signed-in
 * staff session (or a customer one) in storage first.
 */
function boot(overrides: Partial<Record<CallNumber, FakeAnswer>>, { restored = true, customer = false } = {}) {
  const store = memoryStore();
  if (restored) seedSession(store);
  if (customer) store.setItem('type', 'CUSTOMER');
  const server = fakeServer(overrides);
  const navigate = vi.fn();
  const toaster = { show: vi.fn() };
  const services = createAppServices({
    navigate,
    store,
    storedSession: readStoredSession(store),
    fetch: server.fetch,
    toaster,
    win: null,
    realtimeConnection: fromCallback<RealtimeEvent, RealtimeInput>(() => () => {}),
  });
  const { session } = services;
  return { services, session, store, server, navigate, toaster };
}

/** The docs/product.md §7 outcome of a 401 with a session: redirected, storage cleared, /auth/access. */
async function expectSessionEnded({ session, store, navigate }: ReturnType<typeof boot>) {
  await waitFor(session, (s) => s.matches('redirected'));
  const snap = session.getSnapshot();
  expect(snap.context.redirect).toEqual({ status: 401, to: '/auth/access' });
  expect(snap.context.token).toBeNull();
  expect(snap.context.user).toBeNull();
  expect(store.data.size).toBe(0);
  expect(navigate).toHaveBeenLastCalledWith('/auth/access');
  expect(navigate).not.toHaveBeenCalledWith('/');
}

const unauthorized = SESSION_ERROR_ANSWERS[401];

// The failures the app logs (console.error by default) are expected here.
beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => {}));
afterEach(() => vi.restoreAllMocks());

describe('a 401 on each call ends the session (→ /auth/access, storage cleared)', () => {
  it.each([3, 9, 10, 11] as const)('row %i, a secondary call of the login', async (call) => {
    const app = boot({ [call]: unauthorized }, { restored: false });
    app.session.send(login);
    await expectSessionEnded(app);
    expect(app.server.seen).toContain(CALLS[call]);
  });

  it('row 11 at start-up (a restored session revalidates its token)', async () => {
    const app = boot({ 11: unauthorized });
    await expectSessionEnded(app);
    expect(app.server.seen).toEqual([CALLS[11]]);
  });

  it('row 12, the staff notifications fetch', async () => {
    const app = boot({ 12: unauthorized });
    await expectSessionEnded(app);
    expect(app.server.seen).toContain(CALLS[12]);
    expect(app.session.getSnapshot().children.notifications).toBeUndefined();
  });

  it('row 13, the customer notifications fetch', async () => {
    const app = boot({ 13: unauthorized }, { customer: true });
    await expectSessionEnded(app);
    expect(app.server.seen).toContain(CALLS[13]);
  });

  it('row 14, marking the notifications seen when the panel opens', async () => {
    const app = boot({ 14: unauthorized });
    await waitFor(app.session, (s) => s.matches({ loggedIn: 'ready' }));
    const notifications = app.session.getSnapshot().children.notifications!;
    await waitFor(notifications, (s) => s.matches({ list: 'ready' }));
    expect(notifications.getSnapshot().context.count).toBe(1);
    notifications.send({ type: 'notifications.opened' });
    await expectSessionEnded(app);
    expect(app.server.seen).toContain(CALLS[14]);
  });

  it('row 8, the dark-mode toggle saving the styles: no "Estilos no guardados" toast', async () => {
    const app = boot({ 8: unauthorized });
    await waitFor(app.session, (s) => s.matches({ loggedIn: 'ready' }));
    const shell = await app.services.machines.shell();
    shell.theme.send({ type: 'theme.darkToggled' });
    await expectSessionEnded(app);
    await waitFor(shell.theme, (s) => s.matches({ persistence: 'idle' }));
    expect(app.toaster.show).not.toHaveBeenCalledWith(NOT_SAVED_TOAST);
    expect(app.toaster.show).not.toHaveBeenCalled();
    // Styles belong to the session: the dark choice is not written back after it ended.
    expect(readStorage('system_styles', app.store)).toBeNull();
  });

  it('row 15, "Cambiar" in the change-password dialog: no toast, the dialog closes and forgets what was typed', async () => {
    const app = boot({ 15: unauthorized });
    await waitFor(app.session, (s) => s.matches({ loggedIn: 'ready' }));
    const { changePassword } = await app.services.machines.shell();
    changePassword.send({ type: 'password.open' });
    for (const [field, value] of [
      ['actual_password', 'Actual123'],
      ['new_password', 'Nueva1234'],
      ['confirmar_password', 'Nueva1234'],
    ] as const) {
      changePassword.send({ type: 'password.changed', field, value });
    }
    changePassword.send({ type: 'password.submit' });
    await expectSessionEnded(app);
    await waitFor(changePassword, (s) => s.matches('closed'));
    expect(changePassword.getSnapshot().context.fields).toEqual({ actual_password: '', new_password: '', confirmar_password: '' });
    expect(app.toaster.show).not.toHaveBeenCalled();
    expect(app.server.seen).toContain(CALLS[15]);
  });
});

describe("the realtime channel authorisation (pusher-js's own call)", () => {
  it('a 401 from /broadcasting/auth ends the session like any other call', async () => {
    vi.useFakeTimers();
    try {
      const store = memoryStore();
      const server = fakeServer({});
      const navigate = vi.fn();
      // The connection as connectEcho reports a refused subscription (pusher:subscription_error, status 401).
      const refusing = fromCallback<RealtimeEvent, RealtimeInput>(({ sendBack }) => {
        sendBack({ type: 'pusher.stateChanged', state: 'connected' });
        sendBack({ type: 'realtime.authRefused', status: 401 });
        return () => {};
      });
      const { session } = createAppServices({
        navigate,
        store,
        storedSession: readStoredSession(store),
        fetch: server.fetch,
        toaster: { show: vi.fn() },
        win: null,
        realtimeConnection: refusing,
      });
      session.send(login);
      await vi.waitFor(() => expect(session.getSnapshot().matches({ loggedIn: 'ready' })).toBe(true));
      session.getSnapshot().children.realtime!.send({ type: 'realtime.start' });
      await vi.advanceTimersByTimeAsync(6000); // the realtime machine waits 5 s before connecting
      expect(session.getSnapshot().matches('redirected')).toBe(true);
      expect(session.getSnapshot().context.redirect).toEqual({ status: 401, to: '/auth/access' });
      expect(store.data.size).toBe(0);
      expect(navigate).toHaveBeenLastCalledWith('/auth/access');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the other statuses of the global rule, and its exceptions', () => {
  it('404 → /auth/error and 402 → /auth/pago keep the token (row 12, row 8)', async () => {
    const notFound = boot({ 12: SESSION_ERROR_ANSWERS[404] });
    await waitFor(notFound.session, (s) => s.matches('redirected'));
    expect(notFound.navigate).toHaveBeenLastCalledWith('/auth/error');
    expect(readStorage('token', notFound.store)).toBe(TOKEN);

    const lapsed = boot({ 8: SESSION_ERROR_ANSWERS[402] });
    await waitFor(lapsed.session, (s) => s.matches({ loggedIn: 'ready' }));
    (await lapsed.services.machines.shell()).theme.send({ type: 'theme.darkToggled' });
    await waitFor(lapsed.session, (s) => s.matches('redirected'));
    expect(lapsed.navigate).toHaveBeenLastCalledWith('/auth/pago');
    expect(readStorage('token', lapsed.store)).toBe(TOKEN);
    expect(lapsed.toaster.show).not.toHaveBeenCalled();
  });

  it("row 2: a 402 at login goes to /auth/pago; a 401 is the login's own answer (message on the form)", async () => {
    const lapsed = boot({ 2: SESSION_ERROR_ANSWERS[402] }, { restored: false });
    lapsed.session.send(login);
    await waitFor(lapsed.session, (s) => s.matches('redirected'));
    expect(lapsed.navigate).toHaveBeenCalledWith('/auth/pago');

    const refused = boot({ 2: unauthorized }, { restored: false });
    refused.session.send(login);
    await waitFor(refused.session, (s) => s.matches('loggedOut'));
    expect(refused.session.getSnapshot().context.loginError).toBe('Sesión no válida o expirada');
    expect(refused.navigate).not.toHaveBeenCalled();
  });

  it('row 7: a logout answered 401 still lands on /auth/login (docs/product.md §4, §8: logout errors are only logged)', async () => {
    const app = boot({ 7: unauthorized });
    await waitFor(app.session, (s) => s.matches({ loggedIn: 'ready' }));
    app.session.send({ type: 'session.logout' });
    await waitFor(app.session, (s) => s.matches('loggedOut'));
    expect(app.navigate).toHaveBeenLastCalledWith('/auth/login');
    expect(app.navigate).not.toHaveBeenCalledWith('/auth/access');
    expect(app.store.data.size).toBe(0);
  });

  it('routes one error once: the client reports it, a screen reporting the same object again changes nothing', async () => {
    const app = boot({ 12: SESSION_ERROR_ANSWERS[404] });
    await waitFor(app.session, (s) => s.matches('redirected'));
    const routed = app.session.getSnapshot().context.routedError;
    expect(routed).toBeInstanceOf(ApiError);
    app.session.send({ type: 'session.apiError', error: routed! });
    expect(app.navigate).toHaveBeenCalledTimes(1);
  });

  it('a 401 with no session left (a late answer after the session ended) is ignored', async () => {
    const app = boot({ 11: unauthorized });
    await expectSessionEnded(app);
    app.session.send({ type: 'session.apiError', error: new ApiError(401, 'Sesión no válida o expirada') });
    expect(app.navigate).toHaveBeenCalledTimes(1);

    const loggedOut = boot({}, { restored: false });
    loggedOut.session.send({ type: 'session.apiError', error: new ApiError(401, 'Sesión no válida o expirada') });
    expect(loggedOut.session.getSnapshot().value).toBe('loggedOut');
    expect(loggedOut.navigate).not.toHaveBeenCalled();
  });
});
