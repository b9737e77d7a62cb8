import { Box, Card, Center } from '@mantine/core';
import { Outlet } from 'react-router-dom';

/** The public chat screens: no header, one centered card (max 500 px on medium and up, min 300). */
export function ChatLayout() {
  return (
    <Center mih="100vh" p="md">
      <Box w="100%" maw={{ base: '100%', md: 500 }} miw={300}>
        <Card withBorder shadow="md" radius="md" padding="md">
          {/* Each screen brings its own Suspense boundary and loader (router.tsx). */}
          <Outlet />
        </Card>
      </Box>
    </Center>
  );
}
