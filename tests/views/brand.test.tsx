/** Brand: the company's uploaded logo in the top bar, Parcela's logo as the fallback (issue "Configuración"). */
import { describe, expect, it } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import { Brand, COMPANY_LOGO, PRODUCT_LOGO } from '../../src/views/shared/Brand';

describe('Brand', () => {
  it("shows the company logo and falls back to Parcela's when there is none", () => {
    const { container } = render(<Brand company />);
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe(COMPANY_LOGO);
    expect(COMPANY_LOGO).toBe('/logo');
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe(PRODUCT_LOGO);
  });

  it("shows Parcela's logo on public pages", () => {
    const { container } = render(<Brand />);
    expect(container.querySelector('img')!.getAttribute('src')).toBe(PRODUCT_LOGO);
  });
});
