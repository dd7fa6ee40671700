import { useId, type ReactNode } from 'react';
import {
  Button,
  ButtonGroup,
  Classes,
  ControlGroup,
  Dialog as BlueprintDialog,
  Drawer as BlueprintDrawer,
  H4,
  HTMLSelect as BlueprintHTMLSelect,
  Icon,
  IconSize,
  NumericInput as BlueprintNumericInput,
  TabPanel,
  type DialogProps,
  type DrawerProps,
  type HTMLInputProps,
  type HTMLSelectProps,
  type NumericInputProps as BlueprintNumericInputProps,
  type TabId,
} from '@blueprintjs/core';
import { ChevronDownIcon, ChevronUpIcon, SmallCrossIcon } from '@blueprintjs/icons';

/**
 * Blueprint components whose built-in accessible names are English or whose ARIA references do
 * not resolve, wrapped once so every screen speaks Spanish (docs/decisions.md "Accessible names
 * and ARIA references"). Views import `Dialog`, `Drawer`, `HTMLSelect` and `NumericInput` from
 * here, never from @blueprintjs/core (eslint.config.js forbids it). The date fields' calendar is
 * in ./day-picker-es.tsx.
 */

/** The Spanish accessible names the wrappers give Blueprint's built-in controls. */
export const ARIA_LABELS = {
  close: 'Cerrar',
  increment: 'Aumentar',
  decrement: 'Disminuir',
  monthDropdown: 'Mes',
  yearDropdown: 'Año',
  previousMonth: 'Mes anterior',
  nextMonth: 'Mes siguiente',
  datePicker: 'Calendario',
} as const;

/**
 * The header Blueprint draws on a Dialog or a Drawer (icon, title, close button), drawn here so the
 * close button is named "Cerrar" (Blueprint hard-codes "Close"): same classes as Blueprint's.
 */
function OverlayHeader({
  className,
  iconSize,
  iconTabIndex,
  icon,
  title,
  showClose,
  onClose,
}: {
  className: string;
  iconSize: number;
  /** Blueprint's dialog header gives its icon tabIndex -1; its drawer header does not. */
  iconTabIndex?: number;
  icon: DialogProps['icon'];
  /** The title element (a dialog's names it; a drawer's is an H4). */
  title: ReactNode;
  showClose: boolean;
  onClose: ((event: React.SyntheticEvent<HTMLElement>) => void) | undefined;
}) {
  return (
    <div className={className}>
      <Icon icon={icon} size={iconSize} aria-hidden tabIndex={iconTabIndex} />
      {title}
      {showClose ? (
        <Button
          aria-label={ARIA_LABELS.close}
          className={Classes.DIALOG_CLOSE_BUTTON}
          icon={<SmallCrossIcon size={iconSize} />}
          onClick={(event) => onClose?.(event)}
          variant="minimal"
        />
      ) : null}
    </div>
  );
}

/** Blueprint's Dialog with its header drawn by {@link OverlayHeader}. Same props as Blueprint's. */
export function Dialog({ title, icon, isCloseButtonShown, titleTagName: TitleTag = 'h2', children, ...props }: DialogProps) {
  const titleId = useId();
  return (
    <BlueprintDialog {...props} aria-labelledby={props['aria-labelledby'] ?? (title != null ? titleId : undefined)}>
      {title != null ? (
        <OverlayHeader
          className={Classes.DIALOG_HEADER}
          iconSize={IconSize.STANDARD}
          iconTabIndex={-1}
          icon={icon}
          title={
            <TitleTag id={titleId} className={Classes.HEADING}>
              {title}
            </TitleTag>
          }
          showClose={isCloseButtonShown !== false}
          onClose={props.onClose}
        />
      ) : null}
      {children}
    </BlueprintDialog>
  );
}

/** Blueprint's Drawer with its header drawn by {@link OverlayHeader}. Same props as Blueprint's. */
export function Drawer({ title, icon, isCloseButtonShown, children, ...props }: DrawerProps) {
  return (
    <BlueprintDrawer {...props}>
      {title != null ? (
        <OverlayHeader
          className={Classes.DRAWER_HEADER}
          iconSize={IconSize.LARGE}
          icon={icon}
          title={<H4>{title}</H4>}
          showClose={isCloseButtonShown !== false}
          onClose={props.onClose}
        />
      ) : null}
      {children}
    </BlueprintDrawer>
  );
}

/**
 * Blueprint's HTMLSelect whose arrow is decorative: Blueprint titles the arrow icon "Open dropdown",
 * which a screen reader reads as an image beside the (already labelled) select.
 */
export function HTMLSelect({ iconProps, ...props }: HTMLSelectProps) {
  return <BlueprintHTMLSelect {...props} iconProps={{ ...iconProps, title: undefined }} />;
}

/** Props of {@link NumericInput}: Blueprint's, with the input's `id` required and the value controlled. */
export type NumericInputProps = Omit<HTMLInputProps, 'size' | 'value' | 'onChange'> &
  Omit<BlueprintNumericInputProps, 'value' | 'buttonPosition'> & {
    /** id of the input: the label's `htmlFor` and the stepper buttons' `aria-controls`. */
    id: string;
    value: number | string;
  };

/**
 * A number field with Spanish stepper buttons. Blueprint's NumericInput names its buttons
 * "increment"/"decrement" and points their `aria-controls` at an id of its own, which the input
 * no longer has once the view gives it an `id` for its label. Here Blueprint draws the input (typing,
 * arrow keys, clamping) and the buttons beside it are ours: "Aumentar"/"Disminuir", controlling
 * the input by its id, one step per click (Shift: the major step), disabled at the bounds.
 */
export function NumericInput({
  id,
  value,
  onValueChange,
  min,
  max,
  stepSize = 1,
  majorStepSize = 10,
  disabled,
  readOnly,
  fill,
  intent,
  className,
  ...props
}: NumericInputProps) {
  const current = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
  const known = Number.isFinite(current);
  const decimals = Math.max(decimalPlaces(stepSize), decimalPlaces(majorStepSize ?? stepSize));
  const step = (direction: 1 | -1, shift: boolean) => {
    const delta = (shift && majorStepSize != null ? majorStepSize : stepSize) * direction;
    let next = Number(((known ? current : 0) + delta).toFixed(decimals));
    if (min !== undefined) next = Math.max(min, next);
    if (max !== undefined) next = Math.min(max, next);
    onValueChange?.(next, String(next), null);
  };
  const inactive = disabled || readOnly;
  return (
    <ControlGroup fill={fill} className={[Classes.NUMERIC_INPUT, className].filter(Boolean).join(' ')}>
      <BlueprintNumericInput
        {...props}
        id={id}
        value={value}
        onValueChange={onValueChange}
        min={min}
        max={max}
        stepSize={stepSize}
        majorStepSize={majorStepSize}
        disabled={disabled}
        readOnly={readOnly}
        fill={fill}
        intent={intent}
        buttonPosition="none"
      />
      <ButtonGroup vertical className={Classes.FIXED}>
        <Button
          aria-label={ARIA_LABELS.increment}
          aria-controls={id}
          disabled={inactive || (max !== undefined && known && current >= max)}
          icon={<ChevronUpIcon />}
          intent={intent}
          onClick={(event) => step(1, event.shiftKey)}
        />
        <Button
          aria-label={ARIA_LABELS.decrement}
          aria-controls={id}
          disabled={inactive || (min !== undefined && known && current <= min)}
          icon={<ChevronDownIcon />}
          intent={intent}
          onClick={(event) => step(-1, event.shiftKey)}
        />
      </ButtonGroup>
    </ControlGroup>
  );
}

function decimalPlaces(n: number): number {
  const text = String(n);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/**
 * The region a `<Tabs id={tabsId}>` controls when its content is drawn outside the Tabs (a list
 * filtered by the tab, a wizard's step): Blueprint's TabPanel, so the region carries the id the
 * selected tab's `aria-controls` names, `role="tabpanel"` and the tab's title as its name.
 */
export function OutsideTabPanel({
  tabsId,
  selectedTabId,
  className,
  children,
}: {
  tabsId: string;
  selectedTabId: TabId;
  className?: string;
  children: ReactNode;
}) {
  return (
    <TabPanel
      parentId={tabsId}
      id={selectedTabId}
      selectedTabId={selectedTabId}
      className={['outside-tab-panel', className].filter(Boolean).join(' ')}
      panel={<>{children}</>}
    />
  );
}

/**
 * `popoverProps.onOpening` of a date input: names the calendar's popup "Calendario" (Blueprint
 * names it "date picker" and offers no prop for it; React never rewrites that constant attribute).
 */
export function nameDatePickerPopup(popover: HTMLElement): void {
  popover.querySelector('[role="dialog"][aria-label="date picker"]')?.setAttribute('aria-label', ARIA_LABELS.datePicker);
}
