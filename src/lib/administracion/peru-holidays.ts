/** Holy Thursday and Good Friday of each seeded year. */
const HOLY_WEEK: Readonly<Record<number, readonly [string, string]>> = {
  2026: ['2026-04-02', '2026-04-03'],
  2027: ['2027-03-25', '2027-03-26'],
};

/**
 * Peru's national public holidays of 2026 and 2027, seeded into `public_holidays` (the admin edits
 * them afterwards: days the Government declares non-working, a new law).
 *
 * Source: Decreto Legislativo N.º 713, art. 6, as amended — Ley N.º 31530 (6 August, Batalla de
 * Junín), Ley N.º 31822 (23 July, Día de la Fuerza Aérea del Perú) and the 2023 laws adding 7 June
 * (Batalla de Arica y Día de la Bandera) and 9 December (Batalla de Ayacucho): sixteen national
 * holidays, as listed on gob.pe "Feriados nacionales". Holy Thursday and Good Friday follow Easter
 * (5 April 2026, 28 March 2027).
 */
export const PERU_HOLIDAYS_2026_2027: ReadonlyArray<readonly [date: string, name: string]> = [2026, 2027].flatMap(
  (year): Array<readonly [string, string]> => [
    [`${year}-01-01`, 'Año Nuevo'],
    [HOLY_WEEK[year]![0], 'Jueves Santo'],
    [HOLY_WEEK[year]![1], 'Viernes Santo'],
    [`${year}-05-01`, 'Día del Trabajo'],
    [`${year}-06-07`, 'Batalla de Arica y Día de la Bandera'],
    [`${year}-06-29`, 'San Pedro y San Pablo'],
    [`${year}-07-23`, 'Día de la Fuerza Aérea del Perú'],
    [`${year}-07-28`, 'Fiestas Patrias'],
    [`${year}-07-29`, 'Fiestas Patrias'],
    [`${year}-08-06`, 'Batalla de Junín'],
    [`${year}-08-30`, 'Santa Rosa de Lima'],
    [`${year}-10-08`, 'Combate de Angamos'],
    [`${year}-11-01`, 'Todos los Santos'],
    [`${year}-12-08`, 'Inmaculada Concepción'],
    [`${year}-12-09`, 'Batalla de Ayacucho'],
    [`${year}-12-25`, 'Navidad'],
  ],
);
