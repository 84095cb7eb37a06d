/**
 * The words seeded postings are made of: small lists, combined, so that titles, companies and
 * descriptions read like real postings and common words ("engineer", "nurse") are common.
 */

export const SENIORITY = [
  '',
  '',
  '',
  'Senior',
  'Junior',
  'Lead',
  'Staff',
  'Principal',
  'Associate',
];

/** Roles, each with the field its descriptions talk about. */
export const ROLES: ReadonlyArray<readonly [title: string, field: string]> = [
  ['Software Engineer', 'software'],
  ['Software Engineer', 'software'],
  ['Backend Engineer', 'software'],
  ['Frontend Developer', 'software'],
  ['Full Stack Developer', 'software'],
  ['Data Engineer', 'data'],
  ['Data Scientist', 'data'],
  ['Data Analyst', 'data'],
  ['DevOps Engineer', 'infrastructure'],
  ['Site Reliability Engineer', 'infrastructure'],
  ['Network Administrator', 'infrastructure'],
  ['Mechanical Engineer', 'engineering'],
  ['Electrical Engineer', 'engineering'],
  ['Civil Engineer', 'engineering'],
  ['Product Manager', 'product'],
  ['Project Manager', 'operations'],
  ['UX Designer', 'design'],
  ['Graphic Designer', 'design'],
  ['Registered Nurse', 'healthcare'],
  ['Nurse Practitioner', 'healthcare'],
  ['Medical Assistant', 'healthcare'],
  ['Pharmacist', 'healthcare'],
  ['Physical Therapist', 'healthcare'],
  ['Accountant', 'finance'],
  ['Financial Analyst', 'finance'],
  ['Bookkeeper', 'finance'],
  ['Sales Representative', 'sales'],
  ['Account Executive', 'sales'],
  ['Customer Service Representative', 'support'],
  ['Customer Success Manager', 'support'],
  ['Marketing Manager', 'marketing'],
  ['Content Writer', 'marketing'],
  ['Warehouse Associate', 'logistics'],
  ['Truck Driver', 'logistics'],
  ['Delivery Driver', 'logistics'],
  ['Forklift Operator', 'logistics'],
  ['Electrician', 'trades'],
  ['Plumber', 'trades'],
  ['Carpenter', 'trades'],
  ['HVAC Technician', 'trades'],
  ['Teacher', 'education'],
  ['Teaching Assistant', 'education'],
  ['Barista', 'hospitality'],
  ['Line Cook', 'hospitality'],
  ['Restaurant Manager', 'hospitality'],
  ['Store Manager', 'retail'],
  ['Cashier', 'retail'],
  ['HR Generalist', 'people'],
  ['Recruiter', 'people'],
  ['Administrative Assistant', 'operations'],
];

export const COMPANY_FIRST = [
  'Acme',
  'Blue',
  'Bright',
  'Cedar',
  'Summit',
  'North',
  'Silver',
  'Pioneer',
  'Harbor',
  'Evergreen',
  'Granite',
  'Maple',
  'Quantum',
  'Red',
  'River',
  'Golden',
  'Atlas',
  'Vertex',
  'Nova',
  'Union',
];

export const COMPANY_SECOND = [
  'Labs',
  'Health',
  'Logistics',
  'Systems',
  'Foods',
  'Bank',
  'Energy',
  'Works',
  'Partners',
  'Analytics',
  'Retail',
  'Motors',
  'Clinic',
  'Solutions',
  'Group',
  'Software',
  'Builders',
];

export const COMPANY_SUFFIX = ['', 'Inc.', 'LLC', 'Co.', 'GmbH', 'Ltd'];

/** Sentences of descriptions, by field; `{company}` and `{title}` are filled in. */
export const FIELD_SENTENCES: Readonly<Record<string, readonly string[]>> = {
  software: [
    'You will design, build and operate services used by millions of people.',
    'Our stack includes TypeScript, Go and PostgreSQL running in the cloud.',
    'You review code, mentor engineers and improve our delivery pipeline.',
  ],
  data: [
    'You will build data pipelines and models that guide product decisions.',
    'Experience with SQL, Python and statistics is expected.',
  ],
  infrastructure: [
    'You keep our platform reliable, observable and secure.',
    'Experience with Kubernetes, Linux and on-call rotations is a plus.',
  ],
  engineering: [
    'You will design, test and document components from concept to production.',
    'A degree in engineering and CAD experience are required.',
  ],
  product: ['You own the roadmap and work closely with engineering and design.'],
  design: ['You turn research into clear, accessible interfaces.'],
  healthcare: [
    'You provide compassionate patient care in a fast-paced clinical setting.',
    'A current license and BLS certification are required.',
  ],
  finance: ['You prepare reports, reconcile accounts and support audits.'],
  sales: ['You build relationships with customers and exceed quarterly targets.'],
  support: ['You help customers by phone, chat and email and solve their problems.'],
  marketing: ['You plan campaigns and write content across channels.'],
  logistics: [
    'You load, move and deliver goods safely and on time.',
    'A valid driver license and a clean record are required.',
  ],
  trades: ['You install, maintain and repair systems on residential and commercial sites.'],
  education: ['You plan lessons and support every student in the classroom.'],
  hospitality: ['You prepare food and serve guests in a friendly team.'],
  retail: ['You run the store floor, the register and the stock room.'],
  people: ['You recruit, onboard and support employees across the company.'],
  operations: ['You keep schedules, budgets and teams organised.'],
};

export const COMMON_SENTENCES = [
  '{company} is hiring a {title} to join a growing team.',
  'We offer competitive pay, health insurance and paid time off.',
  'Flexible schedules and a supportive team are part of the job.',
  'Join {company} and grow your career with us.',
];

export const JOB_TYPES = [
  'Full-time',
  'Full-time',
  'Full-time',
  'Part-time',
  'Contract',
  'Temporary',
  'Internship',
];

export const WORKPLACES = ['', '', '', '', 'Remote', 'Hybrid'];

export const BENEFITS = [
  'Health insurance',
  'Paid time off',
  '401(k)',
  'Dental insurance',
  'Parental leave',
];
