import { Center } from '@mantine/core';
import { ProfileCard } from './profile-card.tsx';

/** Spec §2 /profile. */
export default function ProfilePage() {
  return (
    <Center py="xl">
      <ProfileCard />
    </Center>
  );
}
