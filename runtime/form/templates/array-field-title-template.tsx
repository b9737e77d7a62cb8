import { Grid, Title } from '@mantine/core';
import { getUiOptions, titleId, type ArrayFieldTitleProps } from '@rjsf/utils';

/**
 * An array field's title (the theme's, one level up): level 3 under the dialog's title (h2), as
 * object titles are, so heading levels never skip (axe heading-order); it keeps the h4 look.
 */
export function ArrayFieldTitleTemplate({ fieldPathId, title, uiSchema, registry, optionalDataControl }: ArrayFieldTitleProps) {
  const { label: displayLabel = true } = getUiOptions(uiSchema, registry.globalUiOptions);
  if (!title || !displayLabel) return null;
  const heading = (
    <Title id={titleId(fieldPathId)} order={3} size="h4" fw="normal">
      {title}
    </Title>
  );
  if (!optionalDataControl) return heading;
  return (
    <Grid>
      <Grid.Col span="auto">{heading}</Grid.Col>
      <Grid.Col span="content">{optionalDataControl}</Grid.Col>
    </Grid>
  );
}
