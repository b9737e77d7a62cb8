import { Center } from '@mantine/core';
import { ProfileCard } from './profile-card.tsx';

/** docs/product-rules.md#screens /profile. */
export default function ProfilePage() {
  return (
    <Center py="xl">
      <ProfileCard />
    </Center>
  );
}
