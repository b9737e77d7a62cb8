import { Alert, Button, Stack } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

/** The "done" state of an identity form: a success message and, when given, a button onwards. */
export function SuccessState({ message, to, action }: { message: string; to?: string; action?: string }) {
  return (
    <Stack gap="md" data-testid="form-success">
      <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />}>
        {message}
      </Alert>
      {to && action && (
        <Button component={Link} to={to}>
          {action}
        </Button>
      )}
    </Stack>
  );
}
