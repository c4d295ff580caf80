// Whether the environment asks for traces (issue 21: off by default). Kept apart from sdk.ts so
// that deciding costs no SDK import.

/** True when the environment asks for traces: an exporter named or an OTLP endpoint given. */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (String(env.OTEL_SDK_DISABLED).toLowerCase() === 'true') return false;
  const named = exporterNames(env);
  if (named.includes('none')) return false;
  return named.length > 0 || !!env.OTEL_EXPORTER_OTLP_ENDPOINT || !!env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
}

export function exporterNames(env: NodeJS.ProcessEnv): string[] {
  return (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
}

