import { useRef, useState, type ChangeEventHandler, type CSSProperties, type ReactNode } from 'react';
import { IconSize, useIsomorphicLayoutEffect } from '@blueprintjs/core';
import { Classes as DatetimeClasses, DatePickerUtils } from '@blueprintjs/datetime';
import { ARIA_LABELS, HTMLSelect } from './BlueprintEs';

/**
 * The calendar of Blueprint's date inputs in Spanish (docs/decisions.md "Accessible names and ARIA
 * references"): react-day-picker's own names ("Month: ", "Year: ", "Go to previous month", "Go to
 * next month") replaced, and the month and year dropdowns without Blueprint's "Open dropdown" arrow
 * title. Brings @blueprintjs/datetime: imported only by the date fields.
 */

/** Props react-day-picker passes to its month and year dropdowns. */
interface DayPickerDropdownProps {
  name?: string;
  caption?: ReactNode;
  children?: ReactNode;
  className?: string;
  'aria-label'?: string;
  style?: CSSProperties;
  value?: string | number;
  onChange?: ChangeEventHandler<HTMLSelectElement>;
}

/**
 * The month and year dropdowns: Blueprint's `DatePickerDropdown` (the arrow right after the
 * month's name, measured as Blueprint measures it) drawn with the decorative-arrow HTMLSelect.
 */
function DayPickerDropdown({ caption, children, ...props }: DayPickerDropdownProps) {
  const container = useRef<HTMLDivElement>(null);
  const select = useRef<HTMLSelectElement>(null);
  const [right, setRight] = useState(0);
  const text = typeof caption === 'string' ? caption : '';
  const isMonth = props.name === 'months';
  useIsomorphicLayoutEffect(() => {
    if (!isMonth || container.current === null) return;
    const textWidth = DatePickerUtils.measureTextWidth(text, DatetimeClasses.DATEPICKER_CAPTION_MEASURE, container.current);
    setRight(Math.max(2, (select.current?.clientWidth ?? 0) - textWidth - IconSize.STANDARD - 2));
  }, [isMonth, text]);
  return (
    <div ref={container}>
      <HTMLSelect minimal ref={select} iconProps={isMonth ? { style: { right } } : {}} {...props}>
        {children}
      </HTMLSelect>
    </div>
  );
}

/** `dayPickerProps` of every date input: Spanish names and the dropdowns above. */
export const SPANISH_DAY_PICKER_PROPS = {
  labels: {
    labelMonthDropdown: () => ARIA_LABELS.monthDropdown,
    labelYearDropdown: () => ARIA_LABELS.yearDropdown,
    labelPrevious: () => ARIA_LABELS.previousMonth,
    labelNext: () => ARIA_LABELS.nextMonth,
  },
  components: { Dropdown: DayPickerDropdown },
};
