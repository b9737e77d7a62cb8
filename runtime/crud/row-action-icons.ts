import {
  IconChartBar, IconEraser, IconFolderOpen, IconGitMerge, IconLock, IconMessageChatbot, IconQrcode, IconSchool, IconSearch, type Icon,
} from '@tabler/icons-react';

/** Icons of manifest row actions by their manifest name; explicit so the bundle holds only these. */
export const rowActionIcons: Readonly<Record<string, Icon>> = {
  qrcode: IconQrcode,
  'message-chatbot': IconMessageChatbot,
  school: IconSchool,
  'folder-open': IconFolderOpen,
  eraser: IconEraser,
  search: IconSearch,
  lock: IconLock,
  'chart-bar': IconChartBar,
  'git-merge': IconGitMerge,
};

export function requireRowActionIcon(name: string): Icon {
  const icon = rowActionIcons[name];
  if (!icon) throw new Error(`Row action icon "${name}" is not registered in runtime/crud/row-action-icons.ts`);
  return icon;
}
