import { useId, type ReactNode } from 'react';
import { Button, Classes } from '@blueprintjs/core';
import { Drawer } from './BlueprintEs';
import { useReturnFocus } from './focus-return';

/**
 * A side drawer with its heading and "Cerrar" (the editor drawer, a lead's panel, a sale's
 * details). Blueprint's Drawer has no dialog role, so the content is the labelled
 * `role="dialog"` and carries its own header. While `busy`, it cannot be closed. `size` is its
 * width on a wide screen; it never exceeds the screen's (a 640 px drawer on a 390 px phone hid its
 * left part). Closing gives focus back to the element that opened it (focus-return.ts).
 */
export function SideDrawer({
  isOpen,
  title,
  onClose,
  size = '480px',
  busy = false,
  children,
}: {
  isOpen: boolean;
  title: ReactNode;
  onClose: () => void;
  size?: string;
  busy?: boolean;
  children: ReactNode;
}) {
  const titleId = useId();
  useReturnFocus(isOpen);
  return (
    <Drawer
      isOpen={isOpen}
      onClose={onClose}
      size={`min(${size}, 100vw)`}
      canEscapeKeyClose={!busy}
      canOutsideClickClose={false}
      className="editor-drawer"
    >
      <div role="dialog" aria-modal="true" aria-labelledby={titleId} className="editor-drawer-content">
        <div className={Classes.DRAWER_HEADER}>
          <h2 id={titleId} className={Classes.HEADING}>
            {title}
          </h2>
          <Button
            variant="minimal"
            icon="cross"
            aria-label="Cerrar"
            className={Classes.DIALOG_CLOSE_BUTTON}
            disabled={busy}
            onClick={onClose}
          />
        </div>
        <div className={Classes.DRAWER_BODY}>{children}</div>
      </div>
    </Drawer>
  );
}
