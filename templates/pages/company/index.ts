/** The company page templates, by the name their routes give. */
export const companyTemplates = {};
