import { Classes, DialogBody, Hotkey, Hotkeys, type HotkeyConfig } from '@blueprintjs/core';
import { Dialog } from '../shared/BlueprintEs';

/**
 * Blueprint's hotkeys help dialog, as its `HotkeysProvider` renders it (a `Dialog` listing the
 * registered hotkeys; global ones without a group under "Global"), loaded when first opened (see
 * AppHotkeysProvider in hotkeys.tsx).
 */
export function HotkeysDialog({ isOpen, hotkeys, onClose }: { isOpen: boolean; hotkeys: readonly HotkeyConfig[]; onClose: () => void }) {
  return (
    <Dialog isOpen={isOpen} onClose={onClose} className={Classes.HOTKEY_DIALOG}>
      <DialogBody>
        <Hotkeys>
          {hotkeys.map((hotkey, index) => (
            <Hotkey key={index} {...hotkey} group={hotkey.global === true && hotkey.group == null ? 'Global' : hotkey.group} />
          ))}
        </Hotkeys>
      </DialogBody>
    </Dialog>
  );
}
