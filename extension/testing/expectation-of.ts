import { ExpectationSchema, type Expectation } from '../../runtime/index.js';

// A cell's `metadata.expect` as the editor holds it (edited without the file schema): used only when valid.
export function expectationOf(metadata: { readonly [key: string]: unknown }): Expectation | undefined {
  if (metadata.expect === undefined) return undefined;
  return ExpectationSchema.safeParse(metadata.expect).data;
}
