import { auditChainHead, auditLog } from './audit';
import {
  accessTokens,
  impersonations,
  knownBrowsers,
  passwordResets,
  signInChallenges,
  staffInvitations,
  throttleHits,
  users,
} from './auth';
import { broadcastAttachments, broadcastMails, broadcastRecipients, broadcasts } from './broadcasts';
import { bulkBatches } from './bulk';
import { candidates } from './candidates';
import { conversationMails, conversationMessages, conversations } from './conversations';
import { courseHeaders } from './courses';
import { dashboardSummaries } from './dashboard';
import { dietExtensions, diets, registrationReminders, registrations } from './diets';
import { documentJobs, documentPrints, schoolDocumentChoices, serverSecrets } from './documents';
import { files } from './files';
import { duplicatePairs, integrityPending, integrityScans, photoHashes } from './integrity';
import { examOffences, resits } from './listed';
import { notifications, schoolNotices } from './notifications';
import { fees, paymentIssues, paymentItems, payments, providerHealth, sandboxTransactions } from './payments';
import { nationalities } from './reference';
import {
  inCourseScores,
  papers,
  publishedResults,
  resultHolds,
  resultPublications,
  resultRules,
  results,
  scoreSheets,
  scriptMarks,
} from './scores';
import { trainingSchools } from './schools';

/**
 * One schema for both drivers (PGlite and PostgreSQL), one file an area; drizzle-kit reads this index and
 * turns it into the SQL migrations under server/db/migrations, which are applied at start.
 */
export * from './audit';
export * from './auth';
export * from './broadcasts';
export * from './bulk';
export * from './candidates';
export * from './conversations';
export * from './courses';
export * from './dashboard';
export * from './diets';
export * from './documents';
export * from './files';
export * from './integrity';
export * from './listed';
export * from './notifications';
export * from './payments';
export * from './reference';
export * from './schools';
export * from './scores';

export const schema = {
  dashboardSummaries,
  trainingSchools,
  users,
  accessTokens,
  signInChallenges,
  throttleHits,
  courseHeaders,
  nationalities,
  auditLog,
  auditChainHead,
  files,
  impersonations,
  notifications,
  candidates,
  examOffences,
  resits,
  passwordResets,
  knownBrowsers,
  diets,
  dietExtensions,
  registrations,
  registrationReminders,
  schoolNotices,
  broadcasts,
  broadcastAttachments,
  broadcastRecipients,
  broadcastMails,
  conversations,
  conversationMessages,
  conversationMails,
  bulkBatches,
  fees,
  payments,
  paymentItems,
  paymentIssues,
  sandboxTransactions,
  providerHealth,
  papers,
  resultRules,
  scoreSheets,
  scriptMarks,
  inCourseScores,
  resultHolds,
  results,
  resultPublications,
  publishedResults,
  documentPrints,
  schoolDocumentChoices,
  serverSecrets,
  documentJobs,
  staffInvitations,
  photoHashes,
  integrityPending,
  duplicatePairs,
  integrityScans,
};
