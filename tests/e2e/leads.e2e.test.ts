/**
 * E2E of CRM → LEADS in real Chromium against the built app and the real server (temp database,
 * demo seed): the administrator (a lead supervisor) registers a lead and assigns it to the agent;
 * the agent, signed in elsewhere, gets the notification in real time, opens the lead from it, logs
 * a call with the next follow-up and converts the lead into a customer; a second lead with the same
 * phone is merged into the first; the agent sees only their own leads; a Meta export is imported
 * (one new lead, one merged). Screenshots in
 * test-results/e2e/.
 */
import { describe, expect, it } from 'vitest';
import { e2eEnvironment, newPage, screenshot, setChecked, staffLogin, realtimeSubscribed, openFromMenu } from './harness';

const env = e2eEnvironment();

describe('leads e2e', () => {
  it('a lead assigned by the supervisor reaches the agent, who attends it and converts it; a duplicate is merged', async () => {
    const agent = await newPage(env.browser, env.server.baseUrl);
    // The agent's app is subscribed to their notifications channel before the lead is assigned.
    const subscribed = realtimeSubscribed(agent.page);
    await staffLogin(agent.page, env.server.baseUrl, '70000002', 'Parcela#2026');
    await subscribed;
    await agent.page.getByRole('button', { name: 'Notificaciones' }).waitFor();
    // The demo agent already has unseen notifications (reservation reminders): count from there.
    const badge = agent.page.getByTestId('notifications-badge');
    await expect.poll(() => badge.textContent()).toMatch(/^\d+$/);
    const unseenBefore = Number(await badge.textContent());

    const admin = await newPage(env.browser, env.server.baseUrl);
    const page = admin.page;
    await staffLogin(page, env.server.baseUrl, '70000001', 'Parcela#2026');
    await openFromMenu(page, 'CRM', 'Leads');
    await page.getByRole('heading', { name: 'Leads' }).waitFor();
    await page.getByRole('table', { name: 'Leads' }).getByRole('row').nth(2).waitFor();

    // A new lead from the fair, for the agent.
    await page.getByRole('button', { name: 'Nuevo lead' }).first().click();
    const form = page.getByRole('dialog', { name: 'Nuevo lead' });
    await form.getByLabel('Nombre completo').fill('Gabriela Torres Ríos');
    await form.getByLabel('Canal').selectOption({ label: 'Feria' });
    await form.getByLabel('Teléfono').fill('+51 955 123 456');
    await form.getByLabel('Asesor').selectOption({ label: 'Lucía Quispe' });
    await setChecked(form.getByRole('checkbox', { name: 'Los Viñedos de Carabayllo' }));
    await screenshot(page, 'leads-new');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await form.waitFor({ state: 'hidden' });

    // The agent's bell rings; the notification opens the lead.
    await expect.poll(async () => Number(await badge.textContent()), { timeout: 30_000 }).toBe(unseenBefore + 1);
    await agent.page.getByRole('button', { name: 'Notificaciones' }).click();
    const bell = agent.page.getByRole('dialog', { name: 'Notificaciones' });
    await bell
      .getByRole('button', { name: /Nuevo lead asignado/ })
      .first()
      .click();
    await agent.page.waitForURL(/\/CRM\/LEADS\?lead=\d+$/);
    const panel = agent.page.getByRole('dialog', { name: 'Gabriela Torres Ríos' });
    await panel.getByText('955123456').waitFor();

    // A call, with the next follow-up: the lead is now attended.
    await panel.getByLabel('Tipo').selectOption({ label: 'Llamada' });
    await panel.getByLabel('Resultado').fill('Interesada en lote esquina, visitará el sábado');
    await panel.getByLabel('Próximo seguimiento').fill('12/01/2030 10:00');
    await panel.getByRole('button', { name: 'Registrar actividad' }).click();
    await panel.getByText('Interesada en lote esquina, visitará el sábado').waitFor();
    await panel.getByText('En atención').first().waitFor();
    await panel.getByText('12/01/2030 10:00').first().waitFor();
    await screenshot(agent.page, 'leads-panel');

    // Convert into a customer: names split, phone carried over; only the DNI is typed.
    await panel.getByRole('button', { name: 'Convertir en cliente' }).click();
    const convert = agent.page.getByRole('dialog', { name: 'Convertir en cliente' });
    expect(await convert.getByLabel('Nombres').inputValue()).toBe('Gabriela');
    expect(await convert.getByLabel('Apellidos').inputValue()).toBe('Torres Ríos');
    expect(await convert.getByLabel('Celular').inputValue()).toBe('955123456');
    await convert.getByLabel('Número de documento').fill('47555666');
    await convert.getByRole('button', { name: 'Guardar' }).click();
    await convert.waitFor({ state: 'hidden' });
    await panel.getByText('Gabriela Torres Ríos', { exact: true }).last().waitFor();
    await expect.poll(async () => (await panel.textContent()) ?? '').not.toContain('Aún no es cliente');
    await panel.getByRole('button', { name: 'Cerrar' }).click();

    // The customer is in Clientes.
    await agent.page.goto('/CRM/clientes?q=47555666');
    await agent.page.getByRole('row').filter({ hasText: 'Gabriela Torres Ríos' }).waitFor();

    // The same phone again from Instagram: the form warns and merges into the existing lead.
    await page.reload();
    await page.getByRole('button', { name: 'Nuevo lead' }).first().click();
    const again = page.getByRole('dialog', { name: 'Nuevo lead' });
    await again.getByLabel('Nombre completo').fill('Gaby Torres');
    await again.getByLabel('Canal').selectOption({ label: 'Instagram' });
    await again.getByLabel('Teléfono').fill('955123456');
    await again.getByText('Posibles duplicados').waitFor();
    await again.getByRole('button', { name: 'Fusionar' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Fusionar' }).click();
    const kept = page.getByRole('dialog', { name: 'Gabriela Torres Ríos' });
    await kept.getByText(/Nuevo contacto fusionado: Gaby Torres por Instagram/).waitFor();

    // The agent sees only their own leads (no agent filter); the administrator's are not listed.
    await agent.page.goto('/CRM/LEADS');
    await agent.page.getByRole('table', { name: 'Leads' }).getByRole('row').nth(2).waitFor();
    expect(await agent.page.getByLabel('Asesor').count()).toBe(0);
    const agentRows = await agent.page.getByRole('table', { name: 'Leads' }).getByRole('row').allTextContents();
    expect(agentRows.slice(1).every((text) => !text.includes('Admin Parcela'))).toBe(true);
    await screenshot(agent.page, 'leads-agent-list');

    // A Meta export imported by the administrator for the agent: checked first, then stored.
    await kept.getByRole('button', { name: 'Cerrar' }).click();
    await kept.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Importar' }).click();
    const importing = page.getByRole('dialog', { name: 'Importar leads' });
    await importing.getByLabel('Archivo de leads').setInputFiles({
      name: 'meta-leads.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'full_name,phone_number,campaign_name,platform\nLuz Ramos,p:+51955200300,Verano,ig\nGaby T.,955123456,Verano,fb\n',
      ),
    });
    await importing.getByLabel('Asignar a').selectOption({ label: 'Lucía Quispe' });
    await importing.getByRole('button', { name: 'Comprobar' }).click();
    await importing.getByText(/2 filas: 1 nuevos, 1 se fusionan, 0 repetidos/).waitFor();
    await screenshot(page, 'leads-import-preview');
    await importing.getByRole('button', { name: 'Importar 2 leads' }).click();
    await importing.waitFor({ state: 'hidden' });
    await page.getByText('1 leads nuevos, 1 fusionados, 0 omitidos').first().waitFor();
    await page.getByLabel('Buscar', { exact: true }).fill('Luz Ramos');
    await page.getByRole('row').filter({ hasText: 'Instagram' }).filter({ hasText: 'Luz Ramos' }).waitFor();

    await agent.context.close();
    await admin.context.close();
  });
});
