/** The services page templates, by the name their routes give. */
export const servicesTemplates = {};
