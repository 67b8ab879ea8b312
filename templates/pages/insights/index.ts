/** The insights page templates, by the name their routes give. */
export const insightsTemplates = {};
