import type { ReactNode } from 'react';
import { Card, Center, Stack, Title } from '@mantine/core';

/** The centered card every identity screen sits in. */
export function IdentityCard({ title, children, width = 420 }: { title?: ReactNode; children: ReactNode; width?: number }) {
  return (
    <Center py="xl">
      <Card withBorder shadow="md" radius="md" padding="xl" w="100%" maw={width}>
        <Stack gap="md">
          {title && (
            <Title order={2} ta="center">
              {title}
            </Title>
          )}
          {children}
        </Stack>
      </Card>
    </Center>
  );
}
