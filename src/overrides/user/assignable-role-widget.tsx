import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { widgetInputProps } from '../../../runtime/form/widgets/widget-input-props.ts';
import { api } from '../../session/session.ts';

/**
 * The user form's role picker: only the roles the signed-in user may assign, as the server
 * decides them (GET /api/roles/assignable, contract/permissions/role-delegation.ts): an
 * administrator every role, anyone else its role's managed roles (issue 27 item 3). A user's
 * current role outside that list still shows, so the form does not silently change it.
 */
export function AssignableRoleWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { onFocus: _focus, onBlur, ...common } = widgetInputProps(props);
  const editable = !props.disabled && !props.readonly;
  const roles = useQuery({ queryKey: ['role', 'assignable'], queryFn: () => api.assignableRoles(), staleTime: 30_000, enabled: editable });
  const value = typeof props.value === 'string' && props.value ? props.value : null;
  const data = (roles.data ?? []).map((role) => ({ value: role._id, label: role.name }));
  if (value && !data.some((option) => option.value === value)) data.unshift({ value, label: props.options.currentRoleLabel ? String(props.options.currentRoleLabel) : value });
  return (
    <Select
      {...common}
      onBlur={onBlur}
      data={data}
      value={value}
      onChange={(next) => props.onChange(next ?? props.options.emptyValue)}
      clearable
      searchable
      nothingFoundMessage={roles.isFetching ? t('form.searchPlaceholder') : t('form.noResults')}
      comboboxProps={{ zIndex: 4000 }}
      data-testid="user-role-picker"
    />
  );
}
