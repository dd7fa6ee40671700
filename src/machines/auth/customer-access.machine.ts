import { assign, setup } from 'xstate';
import { loginFormMachine } from './login-form.machine';
import { registrationMachine } from './registration.machine';

/**
 * `customer-access` machine (issue "Foundation"; docs/product.md §2 /auth/loginclientes): the two tabs of
 * the customer screen, "Ingresar" (login) and "Registrarme" (register). Each tab invokes its own
 * form machine (`loginForm` with user_type CUSTOMER, `registration`); a completed registration
 * switches to the login tab with the document number prefilled.
 */

export type CustomerTab = 'login' | 'register';

export interface CustomerAccessContext {
  /** Document number to prefill in the login form (after registration). */
  documentNumber: string;
  /** Today's date in America/Lima, passed to the registration machine. */
  today: string;
}

export interface CustomerAccessInput {
  today: string;
}

export type CustomerAccessEvent = { type: 'tab.select'; tab: CustomerTab };

export const customerAccessMachine = setup({
  types: {
    context: {} as CustomerAccessContext,
    events: {} as CustomerAccessEvent,
    input: {} as CustomerAccessInput,
    children: {} as { loginForm: 'loginForm'; registration: 'registration' },
  },
  actors: {
    loginForm: loginFormMachine,
    registration: registrationMachine,
  },
  guards: {
    isLoginTab: ({ event }) => event.tab === 'login',
    isRegisterTab: ({ event }) => event.tab === 'register',
  },
}).createMachine({
  id: 'customerAccess',
  context: ({ input }) => ({ documentNumber: '', today: input.today }),
  initial: 'login',
  states: {
    login: {
      invoke: {
        id: 'loginForm',
        src: 'loginForm',
        input: ({ context }) => ({ userType: 'CUSTOMER' as const, user: context.documentNumber }),
      },
      on: { 'tab.select': { guard: 'isRegisterTab', target: 'register' } },
    },
    register: {
      invoke: {
        id: 'registration',
        src: 'registration',
        input: ({ context }) => ({ today: context.today }),
        onDone: {
          target: 'login',
          actions: assign({ documentNumber: ({ event }) => event.output.documentNumber }),
        },
      },
      on: { 'tab.select': { guard: 'isLoginTab', target: 'login' } },
    },
  },
});

export type CustomerAccessMachine = typeof customerAccessMachine;
