import { Box, Card, Center } from '@mantine/core';
import { Outlet } from 'react-router-dom';
import { useChatFill } from '../../chat/use-chat-fill.ts';

/**
 * The public chat screens: no header, one centered card (max 500 px on medium and up, min 300).
 * On a phone, and inside the widget's iframe, the card is the whole screen: no margin, full height.
 */
export function ChatLayout() {
  const fill = useChatFill();
  return (
    // The public chat's one landmark: everything a visitor reads is in <main>.
    <Center component="main" mih="100dvh" p={fill ? 0 : 'md'} data-chat-fill={fill ? 'true' : undefined}>
      <Box w="100%" maw={fill ? '100%' : { base: '100%', md: 500 }} miw={fill ? 0 : 300}>
        <Card withBorder={!fill} shadow={fill ? undefined : 'md'} radius={fill ? 0 : 'md'} padding="md" h={fill ? '100dvh' : undefined} style={fill ? { display: 'flex', flexDirection: 'column' } : undefined}>
          {/* Each screen brings its own Suspense boundary and loader (router.tsx). */}
          <Outlet />
        </Card>
      </Box>
    </Center>
  );
}
