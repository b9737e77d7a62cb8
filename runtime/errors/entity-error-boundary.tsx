import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert, Code, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** The entity (or screen) whose part this is: named in the panel, so the report says what broke. */
  entity: string;
  /** A smaller panel, for a part of a page (a gallery tile) rather than the whole page. */
  compact?: boolean;
  children: ReactNode;
}

interface State { error: Error | null }

/**
 * Catches what a CRUD page or a menu tile throws while rendering and shows a panel naming the
 * entity, instead of React unmounting the whole console into a blank screen. The rest of the
 * console (menu, other pages) keeps working; the error is still logged for the developer.
 */
export class EntityErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[forja] the ${this.props.entity} screen failed to render`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return <EntityErrorPanel entity={this.props.entity} error={this.state.error} compact={this.props.compact ?? false} />;
  }
}

function EntityErrorPanel({ entity, error, compact }: { entity: string; error: Error; compact: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertTriangle size={18} />}
      title={t('app.pageError.title', { entity })}
      data-testid={`entity-error-${entity}`}
    >
      {!compact && <Text size="sm" mb="xs">{t('app.pageError.hint')}</Text>}
      <Code block={!compact}>{error.message}</Code>
    </Alert>
  );
}
