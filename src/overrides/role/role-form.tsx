import { useImperativeHandle, useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Code, Fieldset, Group, Loader, MultiSelect, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { EntityFormProps } from '../../../runtime/form/entity-form.tsx';
import { useCan } from '../../../runtime/permissions/permissions-context.tsx';
import { requireEntityClient, useRuntime } from '../../../runtime/context/runtime-context.tsx';
import { refId } from '../../../runtime/crud/prepare-record.ts';
import { api } from '../../session/session.ts';
import { useTranslateMessage } from '../../identity/use-translate-message.ts';
import { groupPermissions, normalisePermissions, permissionLabelKeys, roleNameError } from './group-permissions.ts';
import { isSeededAdminRole } from './seeded-admin-role.ts';
import { mayOfferChildRole } from './role-rules.ts';
import { entityQueryKeys } from '../../../runtime/query/entity-query-keys.ts';

const ids = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item : refId(item as Record<string, unknown>))).filter((id): id is string => Boolean(id)) : [];

/**
 * docs/product-rules.md#entities Role editor: name, child roles as blue chips, permissions grouped by prefix (only with
 * role:permissions), read-only roles show a warning and every input disabled (no submit: canSubmit);
 * one that may be unlocked offers that as its only change, a button in the warning.
 */
export function RoleForm({ operation, initialData, fieldErrors = {}, handle, id }: EntityFormProps) {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const can = useCan();
  const services = useRuntime();
  const queryClient = useQueryClient();
  const lockedRole = initialData.readonly === true;
  const readOnly = operation === 'view' || operation === 'delete' || lockedRole;
  // Any role but the seeded Admin can be locked, and a locked one unlocked (nothing else changes then).
  const [locked, setLocked] = useState(lockedRole);
  const lockEditable = (operation === 'create' || operation === 'edit') && !isSeededAdminRole(initialData);
  // Locking is a change like any other (the switch); unlocking a locked role is its own button.
  const switchEditable = lockEditable && !lockedRole;
  const [name, setName] = useState(String(initialData.name ?? ''));
  const [childRoles, setChildRoles] = useState<string[]>(() => ids(initialData.childRoles));
  const [permissions, setPermissions] = useState<string[]>(() => (Array.isArray(initialData.permissions) ? initialData.permissions.map(String) : []));
  const [touched, setTouched] = useState(false);
  const canEditPermissions = can('role:permissions');

  const roles = useQuery({
    queryKey: ['role', 'all-options'],
    queryFn: () => requireEntityClient(services, 'role').find({ limit: 1000 }),
  });
  const catalogue = useQuery({ queryKey: ['permissions'], queryFn: async () => normalisePermissions(await api.permissions()), enabled: canEditPermissions, staleTime: 300_000 });
  const ownId = refId(initialData);
  const roleOptions = useMemo(() => {
    // Only the roles the server lets this user list as managed (mayAddChildRole, issue 27 item 3).
    const options = (roles.data ?? [])
      .filter((role) => mayOfferChildRole(role))
      .map((role) => ({ value: refId(role) ?? '', label: String(role.name ?? '') }))
      .filter((option) => option.value && option.value !== ownId);
    // Keep selected roles visible even if the list has not loaded them.
    for (const child of Array.isArray(initialData.childRoles) ? initialData.childRoles : []) {
      const value = typeof child === 'string' ? child : refId(child as Record<string, unknown>);
      if (value && !options.some((option) => option.value === value)) options.push({ value, label: typeof child === 'object' && child ? String((child as Record<string, unknown>).name ?? value) : value });
    }
    return options;
  }, [roles.data, initialData.childRoles, ownId]);
  // Unlocking is a read-only role's only change (the server accepts readonly: false with every other
  // field as it was); the dialog then offers Editar on the row again.
  const unlock = useMutation({
    mutationFn: () =>
      requireEntityClient(services, 'role').update({
        id: ownId ?? '',
        data: { name: String(initialData.name ?? ''), childRoles: ids(initialData.childRoles), ...(Array.isArray(initialData.permissions) ? { permissions: initialData.permissions.map(String) } : {}), readonly: false },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: entityQueryKeys('role').all }),
  });
  const groups = useMemo(() => groupPermissions([...(catalogue.data ?? []), ...permissions]), [catalogue.data, permissions]);
  const nameError = roleNameError(name);

  useImperativeHandle(
    handle,
    () => ({
      validate: () => {
        setTouched(true);
        return roleNameError(name) === null;
      },
      getData: () => ({ name: name.trim(), childRoles, ...(canEditPermissions ? { permissions } : {}), readonly: locked }),
    }),
    [name, childRoles, permissions, canEditPermissions, locked],
  );

  const toggle = (permission: string, checked: boolean) =>
    setPermissions((current) => (checked ? [...current, permission] : current.filter((item) => item !== permission)));

  return (
    <Stack id={id} data-testid="role-form">
      {lockedRole && !unlock.isSuccess && (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="role-readonly-warning">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t(lockEditable && operation === 'edit' ? 'role.readonlyUnlockHint' : 'role.readonlyWarning')}</Text>
            {lockEditable && operation === 'edit' && ownId && (
              <Button size="xs" variant="light" color="yellow" loading={unlock.isPending} onClick={() => unlock.mutate()} data-testid="role-unlock">
                {t('role.unlock')}
              </Button>
            )}
            {unlock.isError && (
              <Text size="sm" c="red" role="alert">
                {translate(unlock.error instanceof Error ? unlock.error.message : String(unlock.error))}
              </Text>
            )}
          </Stack>
        </Alert>
      )}
      {unlock.isSuccess && (
        <Alert color="green" data-testid="role-unlocked">
          {t('role.unlocked')}
        </Alert>
      )}
      <TextInput
        label={t('field.role.name')}
        description={t('hint.role.name')}
        required
        value={name}
        readOnly={readOnly}
        onChange={(event) => setName(event.currentTarget.value)}
        error={translate(fieldErrors.name?.[0] ?? (touched ? nameError : null)) || undefined}
        data-testid="role-name"
      />
      <MultiSelect
        label={t('field.role.childRoles')}
        description={t('hint.role.childRoles')}
        data={roleOptions}
        value={childRoles}
        onChange={setChildRoles}
        readOnly={readOnly}
        searchable
        clearable={!readOnly}
        rightSection={roles.isLoading ? <Loader size="xs" /> : undefined}
        error={translate(fieldErrors.childRoles?.[0]) || undefined}
        comboboxProps={{ zIndex: 2100 }}
        maxDropdownHeight={310}
        styles={{ pill: { backgroundColor: 'var(--mantine-color-blue-filled)', color: 'var(--mantine-color-white)' } }}
        data-testid="role-child-roles"
      />
      {canEditPermissions && (
        <Fieldset legend={t('field.role.permissions')} data-testid="role-permissions">
          {catalogue.isLoading ? (
            <Group>
              <Loader size="sm" />
              <Text size="sm">{t('role.permissionsLoading')}</Text>
            </Group>
          ) : (
            <Stack gap="md">
              {fieldErrors.permissions?.[0] && <Text c="red" size="sm">{translate(fieldErrors.permissions[0])}</Text>}
              {groups.map((group) => {
                const selected = group.permissions.filter((permission) => permissions.includes(permission));
                return (
                  <Stack key={group.name} gap={6} data-testid={`permission-group-${group.name}`}>
                    <Checkbox
                      label={<Text fw={600}>{t(permissionLabelKeys(group.name, '').group)}</Text>}
                      checked={selected.length === group.permissions.length}
                      indeterminate={selected.length > 0 && selected.length < group.permissions.length}
                      disabled={readOnly}
                      onChange={(event) => {
                        const checked = event.currentTarget.checked;
                        setPermissions((current) => (checked ? [...new Set([...current, ...group.permissions])] : current.filter((item) => !group.permissions.includes(item))));
                      }}
                      aria-label={`${t('role.selectGroup')} ${t(permissionLabelKeys(group.name, '').group)}`}
                    />
                    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing={4} pl="lg">
                      {group.permissions.map((permission) => {
                        const keys = permissionLabelKeys(group.name, permission);
                        return (
                          <Checkbox
                            key={permission}
                            size="sm"
                            // People read the action in their language; the key stays visible beneath it for whoever
                            // scripts roles, and in the accessible name, which needs the group to tell "Ver" apart.
                            label={t(keys.action)}
                            // Long codes (knowledgesource:manage) wrap inside their column instead of
                            // running into the next one (issue 27).
                            description={<Code fz="xs" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{permission}</Code>}
                            styles={{ root: { minWidth: 0 }, body: { minWidth: 0 }, labelWrapper: { minWidth: 0 } }}
                            aria-label={`${t(keys.action)} · ${t(keys.group)} (${permission})`}
                            checked={permissions.includes(permission)}
                            disabled={readOnly}
                            onChange={(event) => toggle(permission, event.currentTarget.checked)}
                          />
                        );
                      })}
                    </SimpleGrid>
                  </Stack>
                );
              })}
            </Stack>
          )}
        </Fieldset>
      )}
      <Switch
        label={t('field.role.readonly')}
        description={t('hint.role.readonly')}
        checked={locked}
        disabled={!switchEditable}
        onChange={(event) => setLocked(event.currentTarget.checked)}
        data-testid="role-readonly"
      />
    </Stack>
  );
}
