import '@blueprintjs/datetime/lib/css/blueprint-datetime.css';
import type { KeyboardEvent } from 'react';
import { DateInput } from '@blueprintjs/datetime';
import { es } from 'date-fns/locale';
import { nameDatePickerPopup } from './BlueprintEs';
import { SPANISH_DAY_PICKER_PROPS } from './day-picker-es';
import { t } from '../../i18n/labels';

/**
 * Spanish date field (docs/product.md §9 labels "Elegir fecha", "Hoy", "Limpiar"; dates shown dd/mm/aaaa):
 * Blueprint's DateInput with date-fns' `es` locale, so the calendar names months and weekdays in
 * Spanish and weeks start on Monday. The value is the wire format, an ISO date `YYYY-MM-DD`, or ''
 * when empty; text that is not a date in range reads as {@link INVALID_DATE_VALUE}, which the
 * ISO schemas refuse ("Fecha inválida"). Brings @blueprintjs/datetime and its stylesheet: import it
 * only from screens that are loaded on demand.
 */

/**
 * Keyboard props of a Blueprint date field's text box (docs/decisions.md "Keyboard and focus"):
 * Escape while its calendar is open closes only the calendar. Blueprint's own handler closes it
 * and blurs the box, and the key then went on to the dialog around the field, which closed and lost
 * what was typed. Here the key stops at the field (the dialog never sees it) and the box keeps the
 * focus (Blueprint's blur is skipped for that one key press), so the customer goes on typing or
 * Tabs on. With the calendar closed, Escape goes on to the dialog as usual.
 */
export const calendarEscapeProps = {
  onKeyDownCapture(event: KeyboardEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    if (event.key !== 'Escape' || input.getAttribute('aria-expanded') !== 'true') return;
    // Runs before Blueprint's keydown handler (capture phase): its `blur()` does nothing this once.
    input.blur = () => undefined;
    input.dataset.calendarEscape = 'true';
  },
  onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    if (input.dataset.calendarEscape !== 'true') return;
    // Blueprint has closed the calendar; the dialog must not close as well.
    delete input.dataset.calendarEscape;
    Reflect.deleteProperty(input, 'blur');
    event.stopPropagation();
  },
};

/** Value reported for text that is not a date between `minDate` and `maxDate`. */
export const INVALID_DATE_VALUE = 'invalid';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' → that day at local midnight (how Blueprint's date inputs represent a day). */
function localDateFromIso(iso: string): Date {
  const match = ISO_DATE.exec(iso);
  if (!match) throw new RangeError(`"${iso}" is not an ISO date`);
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

export function IsoDateInput({
  id,
  value,
  onChange,
  minDate = '1900-01-01',
  maxDate = '2100-12-31',
  disabled,
  hasError,
  describedBy,
  ariaLabel,
}: {
  /** id of the text box (for a `<label htmlFor>`); a field without a label gives `ariaLabel`. */
  id?: string;
  /** ISO date, '' or {@link INVALID_DATE_VALUE}. */
  value: string;
  onChange: (value: string) => void;
  /** First and last selectable day (ISO); by default 1900-01-01 … 2100-12-31 (the machine checks the rest). */
  minDate?: string;
  maxDate?: string;
  disabled?: boolean;
  hasError?: boolean;
  /** id of the element describing the field (its error message). */
  describedBy?: string | undefined;
  /** Accessible name when no `<label>` points at the field (a date in a table row). */
  ariaLabel?: string;
}) {
  return (
    <DateInput
      // Blueprint reads a 10-character ISO value as that calendar day; anything else that is not
      // empty (our invalid marker) shows as "Fecha inválida".
      value={value === '' ? null : value}
      onChange={(next) => onChange(next ?? '')}
      onError={() => onChange(INVALID_DATE_VALUE)}
      dateFnsFormat="dd/MM/yyyy"
      locale={es}
      placeholder={t('chooseDate')}
      invalidDateMessage="Fecha inválida"
      outOfRangeMessage="Fecha fuera de rango"
      showActionsBar
      todayButtonText={t('today')}
      clearButtonText={t('clear')}
      highlightCurrentDay
      minDate={localDateFromIso(minDate)}
      maxDate={localDateFromIso(maxDate)}
      disabled={disabled}
      fill
      popoverProps={{ placement: 'bottom-start', onOpening: nameDatePickerPopup }}
      dayPickerProps={SPANISH_DAY_PICKER_PROPS}
      inputProps={{
        ...(id ? { id } : {}),
        ...(ariaLabel ? { 'aria-label': ariaLabel } : {}),
        size: 'large',
        ...(hasError ? { intent: 'danger' as const } : {}),
        'aria-invalid': hasError ? true : undefined,
        'aria-describedby': describedBy,
        ...calendarEscapeProps,
      }}
    />
  );
}
