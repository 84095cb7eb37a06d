// The saved examples of the API explorer: one tab per Interview API operation, then Employer
// Data, Job Sync, Disposition Sync's send and this service's read-back, then jobSearch, written
// against the schema
// (test/console/explorer-examples.test.ts validates each one). Ids in the variables are
// placeholders: paste the id that createVirtualInterviewEvent (or createSourcedJobPostings)
// returned. The Jobs APIs answer only once the app's owner has enabled them (the APIs section of
// the app's page).

const PLACEHOLDER_ID = 'paste-an-event-id-here';

const EVENT_FIELDS = `id
      title
      status
      startTime
      endTime
      timezone
      mediaType
      interviewerLobbyUrl
      interviewLandingPageUrl
      interviewersConnection {
        totalCount
        interviewers { id email name }
      }
      intervieweesConnection {
        interviewees { id name email status intervieweeLobbyUrl }
      }`;

function variables(value) {
  return JSON.stringify(value, null, 2);
}

export const EXAMPLES = [
  {
    query: `mutation createVirtualInterviewEvent($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) {
    event {
      ${EVENT_FIELDS}
    }
  }
}
`,
    variables: variables({
      input: {
        title: 'Backend engineer: first round',
        startTime: '2030-06-03T09:00:00-04:00',
        endTime: '2030-06-03T10:00:00-04:00',
        timezone: 'America/New_York',
        interviewers: [{ email: 'interviewer@example.com' }],
        interviewee: {
          name: 'Jane Doe',
          email: 'jane.doe@example.com',
          job: { title: 'Backend engineer', location: 'Remote' },
        },
        requestMetadata: { atsName: 'API explorer' },
      },
    }),
  },
  {
    query: `mutation updateVirtualInterviewEvent($input: UpdateVirtualInterviewEventInput!) {
  updateVirtualInterviewEvent(input: $input) {
    event {
      ${EVENT_FIELDS}
    }
  }
}
`,
    variables: variables({
      input: { setTitle: { id: PLACEHOLDER_ID, title: 'Backend engineer: second round' } },
    }),
  },
  {
    query: `mutation cancelVirtualInterviewEvent($id: ID!) {
  cancelVirtualInterviewEvent(input: { id: $id }) {
    event {
      id
      status
      intervieweesConnection {
        interviewees { id status }
      }
    }
  }
}
`,
    variables: variables({ id: PLACEHOLDER_ID }),
  },
  {
    query: `query virtualInterviewEvents($ids: [ID!]!) {
  virtualInterviewEvents(input: { ids: $ids }) {
    events {
      ${EVENT_FIELDS}
    }
  }
}
`,
    variables: variables({ ids: [PLACEHOLDER_ID] }),
  },
  {
    query: `query findVirtualInterviewEvents($first: Int, $after: String, $input: FindVirtualInterviewEventsInput!) {
  findVirtualInterviewEvents(first: $first, after: $after, input: $input) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges {
      cursor
      node { id title status startTime endTime }
    }
  }
}
`,
    variables: variables({
      first: 20,
      input: {
        startTime: { after: '2030-01-01T00:00:00Z' },
        sort: [{ field: 'START_TIME', order: 'ASC' }],
      },
    }),
  },
  {
    // Job Sync and Employer Data answer once the app's owner has enabled them; Job Sync needs a
    // token issued for one employer. The employer cited by jobSource.employerIds must exist.
    query: `mutation patchEmployer($input: PatchEmployerInput!) {
  patchEmployer(input: $input) {
    responseCode
    attributeUpdated
    employerKey
    errors { message detail suggestion }
  }
}
`,
    variables: variables({
      input: {
        id: { type: 'my-ats', id: 'acme-robotics' },
        employerName: 'Acme Robotics',
        employerAttributes: {
          employerType: 'JURIDICAL_PERSON',
          countrySpecificAttributes: [
            { country: 'US', websiteUrl: 'https://acme.example.com', employees: 'ERv1_51_200' },
          ],
        },
      },
    }),
  },
  {
    query: `mutation createSourcedJobPostings($input: CreateSourcedJobPostingsInput) {
  jobsIngest {
    createSourcedJobPostings(input: $input) {
      results { jobPosting { sourcedPostingId employerJobId } }
    }
  }
}
`,
    variables: variables({
      input: {
        jobPostings: [
          {
            body: {
              title: 'Software Engineer',
              description: 'Build and run the services behind our robots.',
              descriptionFormatting: 'TEXT',
              salary: {
                currency: 'USD',
                minimumMinor: 9000000,
                maximumMinor: 12000000,
                period: 'YEAR',
              },
              location: { country: 'US', cityRegionPostal: 'Austin, TX, 78701' },
              benefits: ['Health insurance'],
            },
            metadata: {
              jobSource: {
                companyName: 'Acme Robotics',
                sourceName: 'Acme ATS',
                sourceType: 'Employer',
                employerIds: [{ type: 'my-ats', id: 'acme-robotics' }],
              },
              jobPostingId: 'REQ-1001',
              datePublished: '2026-10-01T10:00Z',
              url: 'https://careers.example.com/jobs/REQ-1001',
              contacts: [
                {
                  contactType: 'contact',
                  contactInfo: {
                    contactName: 'Riley Recruiter',
                    contactEmail: 'riley@example.com',
                  },
                },
              ],
            },
            applyMethod: { indeedApply: { postUrl: 'https://ats.example.com/apply' } },
          },
        ],
      },
    }),
  },
  {
    query: `query node($id: ID!) {
  node(id: $id) {
    ... on EmployerJob {
      id
      seats { jobPost { id status { globalStatus { lifecycleStatus isIndeedApplyActive } } } }
      jobData { title company jobLocation { city postalCode countryCode } }
    }
  }
}
`,
    variables: variables({ id: 'paste-a-sourcedPostingId-here' }),
  },
  {
    query: `mutation expireSourcedJobsBySourcedPostingId($input: ExpireSourcedJobsBySourcedPostingIdInput!) {
  jobsIngest {
    expireSourcedJobsBySourcedPostingId(input: $input) {
      results {
        trackingKey
        inputData { ... on ExpireSourcedJobBySourcedPostingIdInfo { sourcedPostingId } }
      }
    }
  }
}
`,
    variables: variables({
      input: { jobs: [{ sourcedPostingId: 'paste-a-sourcedPostingId-here' }] },
    }),
  },
  {
    query: `mutation partnerDisposition($input: SendPartnerDispositionInput!) {
  partnerDisposition {
    send(input: $input) {
      numberGoodDispositions
      failedDispositions {
        identifiedBy { indeedApplyID ittk universalApplyId }
        rationale
      }
    }
  }
}
`,
    variables: variables({
      input: {
        dispositions: [
          {
            identifiedBy: { indeedApplyID: 'example-apply-id-0001' },
            dispositionStatus: 'NEW',
            rawDispositionStatus: 'Application received',
            atsName: 'API explorer',
            statusChangeDateTime: '2025-01-31T12:00:00.000Z',
          },
          {
            identifiedBy: { indeedApplyID: 'example-apply-id-0001' },
            dispositionStatus: 'INTERVIEW',
            rawDispositionStatus: 'Phone screen booked',
            atsName: 'API explorer',
            statusChangeDateTime: '2025-02-03T09:30:00.000Z',
          },
        ],
      },
    }),
  },
  {
    query: `query partnerDispositions($first: Int, $after: String) {
  partnerDispositions(first: $first, after: $after) {
    pageInfo { hasNextPage endCursor }
    edges {
      cursor
      node {
        id
        identifiedBy { indeedApplyID ittk universalApplyId }
        dispositionStatus
        rawDispositionStatus
        statusChangeDateTime
        receivedAt
      }
    }
  }
}
`,
    variables: variables({ first: 20 }),
  },
  {
    // Needs the app enabled for the job search API (the app's Overview, or `app enable-api`).
    query: `query jobSearch($what: String, $location: JobSearchLocationInput, $cursor: String) {
  jobSearch(what: $what, location: $location, limit: 10, cursor: $cursor, sort: RELEVANCE) {
    pageInfo { nextCursor }
    results {
      trackingKey
      job {
        key
        title
        datePublished
        employer { name }
        location { city admin1Code countryCode formatted { short } }
        compensation {
          currencyCode
          baseSalary { unitOfWork range { ... on Range { min max } ... on AtLeast { min } } }
        }
        recruit { viewJobUrl detailedSalary }
      }
    }
  }
}
`,
    variables: variables({
      what: 'software engineer',
      location: { where: 'Austin, TX', radius: 25, radiusUnit: 'MILES' },
    }),
  },
];
