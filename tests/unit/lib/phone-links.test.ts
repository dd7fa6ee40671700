/** Phone links (src/lib/phone-links.ts; docs/domain.md "Leads: contact links"). */
import { describe, expect, it } from 'vitest';
import { isPeruvianMobile, leadGreeting, telHref, whatsAppHref } from '../../../src/lib/phone-links';

describe('phone links', () => {
  it('tel: with +51 for Peruvian numbers, + for foreign ones, null without digits', () => {
    expect(telHref('987111222')).toBe('tel:+51987111222');
    expect(telHref('987 111 222')).toBe('tel:+51987111222');
    expect(telHref('+51 987-111-222')).toBe('tel:+51987111222');
    expect(telHref('51987111222')).toBe('tel:+51987111222');
    expect(telHref('01 421 1234')).toBe('tel:+5114211234');
    expect(telHref('+34 600 111 222')).toBe('tel:+34600111222');
    expect(telHref('0034600111222')).toBe('tel:+34600111222');
    expect(telHref(' — ')).toBeNull();
  });

  it('WhatsApp only for Peruvian mobiles, with the text encoded', () => {
    expect(isPeruvianMobile('987111222')).toBe(true);
    expect(isPeruvianMobile('014211234')).toBe(false);
    expect(isPeruvianMobile('+34600111222')).toBe(false);
    expect(whatsAppHref('+51 987 111 222', 'Hola Ana, ¿cómo está?')).toBe(
      'https://wa.me/51987111222?text=Hola%20Ana%2C%20%C2%BFc%C3%B3mo%20est%C3%A1%3F',
    );
    expect(whatsAppHref('014211234', 'Hola')).toBeNull();
  });

  it('greets by first name, with the staff member, the company when known and the project asked about', () => {
    expect(
      leadGreeting({ leadName: 'Ana Torres Ríos', staffName: 'Lucía Quispe', company: 'Inmobiliaria Sur', project: 'Los Viñedos' }),
    ).toBe('Hola Ana, le saluda Lucía Quispe de Inmobiliaria Sur. Le escribo por su interés en Los Viñedos.');
    expect(leadGreeting({ leadName: 'Jorge', staffName: 'Lucía Quispe' })).toBe(
      'Hola Jorge, le saluda Lucía Quispe. Le escribo por su interés en nuestros lotes.',
    );
  });
});
