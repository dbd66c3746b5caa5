import type { BuildResult, Plugin } from 'esbuild';

export declare const WEB_EXTENSION_BUNDLE: string;
export declare const browserOnly: Plugin;
export default function build(options?: { production?: boolean; outfile?: string }): Promise<BuildResult>;
