import { Button, InputGroup } from '@blueprintjs/core';
import { EyeOffIcon, EyeOpenIcon } from '@blueprintjs/icons';

/**
 * Masked password field with a show/hide button (issue "Foundation"). Controlled: the value and
 * the visibility live in the form's machine.
 */
export function PasswordInput({
  id,
  value,
  visible,
  onChange,
  onToggle,
  hasError,
  autoComplete,
  disabled,
}: {
  id: string;
  value: string;
  visible: boolean;
  onChange: (value: string) => void;
  onToggle: () => void;
  hasError?: boolean;
  autoComplete: 'current-password' | 'new-password';
  disabled?: boolean;
}) {
  const label = visible ? 'Ocultar contraseña' : 'Mostrar contraseña';
  return (
    <InputGroup
      id={id}
      type={visible ? 'text' : 'password'}
      value={value}
      onValueChange={onChange}
      autoComplete={autoComplete}
      intent={hasError ? 'danger' : 'none'}
      size="large"
      disabled={disabled}
      aria-invalid={hasError || undefined}
      rightElement={
        <Button
          variant="minimal"
          // Inline icon components (paths in the bundle): the login page shows them before any icon
          // chunk could arrive, and without loading src/lib/icon-paths.ts (issue "Production grade").
          icon={visible ? <EyeOffIcon /> : <EyeOpenIcon />}
          aria-label={label}
          title={label}
          aria-pressed={visible}
          onClick={onToggle}
        />
      }
    />
  );
}
