import '@blueprintjs/datetime/lib/css/blueprint-datetime.css';
import { DateInput, TimePrecision } from '@blueprintjs/datetime';
import { es } from 'date-fns/locale';
import { nameDatePickerPopup } from './BlueprintEs';
import { SPANISH_DAY_PICKER_PROPS } from './day-picker-es';
import { t } from '../../i18n/labels';
import { LIMA_TIME_ZONE } from '../../lib/lima-today';
import { calendarEscapeProps, INVALID_DATE_VALUE } from './IsoDateInput';

/**
 * Spanish date-and-time field in America/Lima (docs/decisions.md "Four-digit years, two-decimal
 * areas"): Blueprint's DateInput with minute precision, date-fns' `es` locale and the text
 * `dd/mm/aaaa hh:mm`, whatever the browser's language (the native `datetime-local` it replaces
 * showed mm/dd/yyyy in an English browser). The value is a Lima wall time `YYYY-MM-DDTHH:mm` — what
 * `datetime-local` wrote, read by src/lib/dates.ts `limaWallTimeToInstant` — or '' when empty; text
 * that is not a date and time reads as {@link INVALID_DATE_VALUE}. Lima has no daylight saving, so
 * the field talks to Blueprint with the fixed offset −05:00. Brings @blueprintjs/datetime: import
 * it only from screens loaded on demand.
 */

/** Lima's offset (no daylight saving since 1994). */
const LIMA_OFFSET = '-05:00';
const WALL_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})/;

export function LimaDateTimeInput({
  id,
  value,
  onChange,
  disabled,
  hasError,
  describedBy,
}: {
  id: string;
  /** Lima wall time `YYYY-MM-DDTHH:mm`, '' or {@link INVALID_DATE_VALUE}. */
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  hasError?: boolean;
  describedBy?: string | undefined;
}) {
  const wall = WALL_TIME.exec(value)?.[1];
  return (
    <DateInput
      value={value === '' ? null : wall ? `${wall}${LIMA_OFFSET}` : value}
      onChange={(next) => onChange(next ? (WALL_TIME.exec(next)?.[1] ?? INVALID_DATE_VALUE) : '')}
      onError={() => onChange(INVALID_DATE_VALUE)}
      timezone={LIMA_TIME_ZONE}
      showTimezoneSelect={false}
      timePrecision={TimePrecision.MINUTE}
      dateFnsFormat="dd/MM/yyyy HH:mm"
      locale={es}
      placeholder="dd/mm/aaaa hh:mm"
      invalidDateMessage="Fecha inválida"
      outOfRangeMessage="Fecha fuera de rango"
      showActionsBar
      todayButtonText={t('today')}
      clearButtonText={t('clear')}
      highlightCurrentDay
      minDate={new Date(2000, 0, 1)}
      maxDate={new Date(2100, 11, 31)}
      disabled={disabled}
      fill
      popoverProps={{ placement: 'bottom-start', onOpening: nameDatePickerPopup }}
      dayPickerProps={SPANISH_DAY_PICKER_PROPS}
      inputProps={{
        id,
        ...(hasError ? { intent: 'danger' as const } : {}),
        'aria-invalid': hasError ? true : undefined,
        'aria-describedby': describedBy,
        ...calendarEscapeProps,
      }}
    />
  );
}
