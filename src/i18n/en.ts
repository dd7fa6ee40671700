import type { Labels } from './es';

/** English UI labels (docs/product.md §1 "Date locale Spanish (English also available)"). */
export const en: Labels = {
  apply: 'Apply',
  clear: 'Clear',
  cancel: 'Cancel',
  yes: 'Yes',
  no: 'No',
  today: 'Today',
  chooseDate: 'Choose date',
  weak: 'Weak',
  medium: 'Medium',
  strong: 'Strong',
  passwordPrompt: 'Enter a password',
  emptySearchMessage: 'No results found',
  emptyOptionsMessage: 'No available options',
};
