// Types of build-ts-plugin.mjs for the tests that build the plugin package into a temp folder.
export declare const TS_PLUGIN_NAME: string;
export declare const TS_PLUGIN_DIR: string;
export default function build(options?: { production?: boolean; out?: string }): Promise<void>;
