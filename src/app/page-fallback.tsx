import { Center, Loader } from '@mantine/core';

/** What a screen shows while its code or its first data loads. */
export function PageFallback() {
  return (
    <Center py="xl">
      <Loader />
    </Center>
  );
}
