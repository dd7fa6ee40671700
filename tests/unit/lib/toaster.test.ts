/** lib/toaster (SPEC §9: top-right, 3000 ms default): created lazily, once. */
import { describe, expect, it, vi } from 'vitest';
import type { Toaster } from '@blueprintjs/core';
import { createLazyToaster } from '../../../src/lib/toaster';

describe('createLazyToaster', () => {
  it('creates the Blueprint toaster on the first toast only and applies the default lifetime', async () => {
    const show = vi.fn();
    const create = vi.fn(async () => ({ show }) as unknown as Toaster);
    const toaster = createLazyToaster(create);
    expect(create).not.toHaveBeenCalled();
    toaster.show({ intent: 'success', message: 'Hecho' });
    toaster.show({ intent: 'danger', message: 'Falló', timeout: 1000 });
    await vi.waitFor(() => expect(show).toHaveBeenCalledTimes(2));
    expect(create).toHaveBeenCalledTimes(1);
    expect(show).toHaveBeenNthCalledWith(1, { intent: 'success', message: 'Hecho', timeout: 3000 });
    expect(show).toHaveBeenNthCalledWith(2, { intent: 'danger', message: 'Falló', timeout: 1000 });
  });
});
