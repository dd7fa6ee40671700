/**
 * The part of jsdom's API the server uses (server/modules/configuracion/logo.ts): a window to run
 * DOMPurify in. jsdom ships no types and @types/jsdom is not installed.
 */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: Window & typeof globalThis;
  }
}
