import { lazy, Suspense } from 'react';
import { InputGroup } from '@blueprintjs/core';
import { HTMLSelect, NumericInput } from '../shared/BlueprintEs';
import type { AmountKind, TermsValues } from '../../machines/comercio/terms-form';
import { QUOTE_METHODS, QUOTE_METHOD_LABELS } from '../../schemas/comercio/quotes';
import { FieldGroup } from '../shared/FieldGroup';

/** The Spanish date field (dd/mm/aaaa; @blueprintjs/datetime), loaded when the terms are first shown. */
const IsoDateInput = lazy(() => import('../shared/IsoDateInput').then((m) => ({ default: m.IsoDateInput })));

/**
 * The payment terms' inputs (issue "CRM and sales"): discount and down payment as an amount or a %,
 * the down payment's interest-free parts, monthly instalments (0 = cash), monthly rate, method and
 * first due date. Shared by the quote dialog and the contract stepper's "Plan de pago"; the values
 * and errors are their machines' (src/machines/comercio/terms-form.ts), each change is `onChange`.
 * Renders the fields only: the caller wraps them in its grid.
 */
export function PaymentTermsFields({
  idPrefix,
  values,
  errors,
  currency,
  busy,
  onChange,
  part = 'all',
}: {
  /** Prefix of the inputs' ids ("quote" → "quote-discount"). */
  idPrefix: string;
  values: TermsValues;
  errors: Partial<Record<string, string | undefined>>;
  currency: 'PEN' | 'USD';
  busy: boolean;
  onChange: (values: Partial<TermsValues>) => void;
  /** Which fields: all, only the discount (the stepper's "Lote y precio"), or all but the discount ("Plan de pago"). */
  part?: 'all' | 'discount' | 'payment';
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const kindSelect = (name: string, label: string, value: AmountKind, onPick: (k: AmountKind) => void) => (
    <HTMLSelect
      aria-label={label}
      id={id(name)}
      value={value}
      disabled={busy}
      onChange={(e) => onPick(e.target.value as AmountKind)}
      options={[
        { value: 'PERCENT', label: '%' },
        { value: 'AMOUNT', label: currency === 'USD' ? 'US$' : 'S/' },
      ]}
    />
  );
  const discount = (
    <FieldGroup label="Descuento" labelFor={id('discount')} error={errors.discount_cents ?? errors.discount_percent}>
      <InputGroup
        id={id('discount')}
        inputMode="decimal"
        value={values.discountText}
        disabled={busy}
        onValueChange={(t) => onChange({ discountText: t })}
        rightElement={kindSelect('discount-kind', 'Tipo de descuento', values.discountKind, (k) => onChange({ discountKind: k }))}
      />
    </FieldGroup>
  );
  if (part === 'discount') return discount;
  return (
    <>
      {part === 'all' ? discount : null}
      <FieldGroup label="Cuota inicial" labelFor={id('down')} error={errors.down_payment_cents ?? errors.down_payment_percent}>
        <InputGroup
          id={id('down')}
          inputMode="decimal"
          value={values.downText}
          disabled={busy}
          onValueChange={(t) => onChange({ downText: t })}
          rightElement={kindSelect('down-kind', 'Tipo de cuota inicial', values.downKind, (k) => onChange({ downKind: k }))}
        />
      </FieldGroup>
      <FieldGroup label="Partes de la cuota inicial" labelFor={id('down-parts')} error={errors.down_payment_parts}>
        <NumericInput
          id={id('down-parts')}
          fill
          min={1}
          max={12}
          value={values.downParts}
          disabled={busy}
          onValueChange={(n) => onChange({ downParts: Number.isNaN(n) ? 1 : n })}
        />
      </FieldGroup>
      <FieldGroup label="Cuotas mensuales" labelFor={id('instalments')} error={errors.instalments} hint="0 = al contado">
        <NumericInput
          id={id('instalments')}
          fill
          min={0}
          max={360}
          value={values.instalments}
          disabled={busy}
          onValueChange={(n) => onChange({ instalments: Number.isNaN(n) ? 0 : n })}
        />
      </FieldGroup>
      <FieldGroup label="Tasa mensual (%)" labelFor={id('rate')} error={errors.monthly_rate_percent}>
        <InputGroup
          id={id('rate')}
          inputMode="decimal"
          value={values.rateText}
          disabled={busy}
          onValueChange={(t) => onChange({ rateText: t })}
        />
      </FieldGroup>
      <FieldGroup label="Método" labelFor={id('method')} error={errors.method}>
        <HTMLSelect
          id={id('method')}
          fill
          value={values.method}
          disabled={busy}
          onChange={(e) => onChange({ method: e.target.value as TermsValues['method'] })}
          options={QUOTE_METHODS.map((m) => ({ value: m, label: QUOTE_METHOD_LABELS[m] }))}
        />
      </FieldGroup>
      <FieldGroup label="Primera cuota" labelFor={id('first-due')} error={errors.first_due_date}>
        <Suspense fallback={<InputGroup id={id('first-due')} disabled value={values.firstDueDate} placeholder="dd/mm/aaaa" readOnly />}>
          <IsoDateInput
            id={id('first-due')}
            value={values.firstDueDate}
            disabled={busy || values.instalments === 0}
            hasError={Boolean(errors.first_due_date)}
            onChange={(t) => onChange({ firstDueDate: t })}
          />
        </Suspense>
      </FieldGroup>
    </>
  );
}
