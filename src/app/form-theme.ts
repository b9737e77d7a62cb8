import { baseFormTheme, withFormTheme } from '../../runtime/form/form-theme.ts';

/**
 * The console's form theme: the runtime's widgets plus whatever this app adds. To draw a field
 * type with a widget of your own, register it here, e.g.
 *   withFormTheme(baseFormTheme, { widgets: { markdown: MarkdownWidget }, fieldTypeWidgets: { longString: 'markdown' } })
 * (docs/architecture.md, "Add a widget for a field type"). A name that is not registered fails at start.
 */
export const formTheme = withFormTheme(baseFormTheme, {});
