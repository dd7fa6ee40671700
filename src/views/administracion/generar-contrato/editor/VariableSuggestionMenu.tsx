import { Classes, Menu, MenuItem } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { groupedSuggestions, type VariableSuggestionMachine } from '../../../../machines/administracion/variable-suggestion.machine';

/** Id of the "@" listbox and of each option (the editor's `aria-controls` / `aria-activedescendant` name them). */
export const SUGGESTION_LISTBOX_ID = 'template-variable-suggestions';
export const suggestionOptionId = (index: number) => `${SUGGESTION_LISTBOX_ID}-${index}`;

/**
 * The "@" menu of the template editor: a listbox of the catalogue entries matching what was typed,
 * grouped as VARIABLE_GROUPS, drawn under the caret. The caret stays in the document (its
 * `aria-activedescendant` names the highlighted option): ArrowUp/ArrowDown move, Enter inserts,
 * Escape closes (the suggestion plugin forwards the keys). A click inserts too.
 */
export function VariableSuggestionMenu({
  actor,
  onChoose,
}: {
  actor: ActorRefFrom<VariableSuggestionMachine>;
  onChoose: (index: number) => void;
}) {
  const open = useSelector(actor, (s) => s.matches('open'));
  const items = useSelector(actor, (s) => s.context.items);
  const index = useSelector(actor, (s) => s.context.index);
  const anchor = useSelector(actor, (s) => s.context.anchor);
  if (!open) return null;
  let position = 0;
  return (
    <div
      className={`template-suggestions ${Classes.ELEVATION_3}`}
      style={anchor ? { left: anchor.left, top: anchor.top } : undefined}
      // Keep the caret in the document when the pointer presses an option.
      onMouseDown={(event) => event.preventDefault()}
    >
      {items.length === 0 ? (
        <p className="template-suggestions-empty" role="status">
          Ninguna variable coincide
        </p>
      ) : (
        <Menu role="listbox" id={SUGGESTION_LISTBOX_ID} aria-label="Variables" size="small">
          {groupedSuggestions(items).map((group) => (
            <li key={group.group} role="presentation">
              <h6
                className={`${Classes.HEADING} ${Classes.MENU_HEADER} template-suggestions-group`}
                id={`${SUGGESTION_LISTBOX_ID}-${group.group}`}
              >
                {group.label}
              </h6>
              <ul role="group" aria-labelledby={`${SUGGESTION_LISTBOX_ID}-${group.group}`} className="template-suggestions-list">
                {group.items.map((item) => {
                  const at = position++;
                  return (
                    <MenuItem
                      key={item.key}
                      id={suggestionOptionId(at)}
                      roleStructure="listoption"
                      selected={at === index}
                      active={at === index}
                      text={item.label}
                      label={item.key}
                      onMouseEnter={() => actor.send({ type: 'suggest.highlight', index: at })}
                      onClick={() => onChoose(at)}
                    />
                  );
                })}
              </ul>
            </li>
          ))}
        </Menu>
      )}
    </div>
  );
}
