import { Anchor, Input, TextInput, Text } from '@mantine/core';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { widgetInputProps } from '../../../runtime/form/widgets/widget-input-props.ts';
import { formatMsToSeconds } from '../../../runtime/table/format-cell.ts';
import { refId } from '../../../runtime/crud/prepare-record.ts';
import { crudRouteAccess } from '../../app/crud-route-access.ts';
import { entityAccess } from '../../generated/entity-access.ts';
import { useSessionCan } from '../../session/session.ts';

/**
 * A trace's latency, stored in milliseconds, shown in seconds as its label says ("Latencia (s)")
 * and as the list's column shows it; the dialog showed the raw milliseconds (issue 27).
 */
export function LatencySecondsWidget(props: WidgetProps) {
  const { onFocus: _focus, onBlur: _blur, ...common } = widgetInputProps(props);
  return <TextInput {...common} readOnly value={formatMsToSeconds(props.value, 2)} data-testid="trace-latency" />;
}

/**
 * A trace's conversation: a link that opens it (its transcript) for whoever may view
 * conversations, instead of its raw id (issue 27); without that permission, a plain mention.
 */
export function ConversationLinkWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const can = useSessionCan();
  const id = refId(props.value);
  const mayOpen = crudRouteAccess(entityAccess.conversation).some(can);
  return (
    <Input.Wrapper id={props.id} label={props.hideLabel ? undefined : props.label}>
      {id === null ? (
        <Text size="sm" c="dimmed" data-testid="trace-conversation">
          {t('trace.noConversation')}
        </Text>
      ) : mayOpen ? (
        <Anchor component={Link} to={`/crud/conversation?view=${encodeURIComponent(id)}`} size="sm" display="block" data-testid="trace-conversation">
          {t('trace.openConversation')}
        </Anchor>
      ) : (
        <Text size="sm" data-testid="trace-conversation">
          {t('trace.conversationNotAllowed')}
        </Text>
      )}
    </Input.Wrapper>
  );
}
