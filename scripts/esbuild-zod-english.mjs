// esbuild plugin: zod's entries re-export every locale as `z.locales` (≈ 250 KiB minified, a quarter of the
// extension's bundle) and esbuild cannot drop the parts of a namespace re-export; our messages are English only
// (zod registers `en` itself), so the bundles keep `z.locales.en` and nothing else.
import path from 'node:path';

// the ESM build (import) and the CommonJS one (require, from dependencies that require zod)
const LOCALES = /^\.\.\/locales\/index\.c?js$/;
// re-exported by zod's classic, mini and core entries alike
const ZOD_V4 = `${path.sep}zod${path.sep}v4${path.sep}`;

export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: LOCALES }, (args) =>
      args.importer.includes(ZOD_V4)
        ? {
            path: path.join(
              path.dirname(args.importer),
              '..',
              'locales',
              args.path.endsWith('.cjs') ? 'en.cjs' : 'en.js',
            ),
            namespace: 'zod-english-only',
          }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: args.path.endsWith('.cjs')
        ? `module.exports = { en: require(${JSON.stringify(args.path)}).default };`
        : `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};
