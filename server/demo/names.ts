/**
 * Made-up people with names plausible at West African health schools: Nigerian names of the main
 * language groups (Yoruba, Igbo, Hausa, Efik and Ibibio, Tiv, Urhobo, Ijaw) and Ghanaian ones (Akan, Ewe,
 * Ga). Used by the demo seed and by the bench's generated candidates.
 */

const words = (list: string) => list.trim().split(/\s+/);

export const FEMALE_FIRST_NAMES = words(`
Adaeze Adeola Aisha Amaka Bilkisu Blessing Bola Chiamaka Chidinma Chioma Damilola Ebere Efe Ekaette
Esther Fatima Folake Funke Grace Hadiza Halima Ifeoma Inemesit Jumoke Ladi Lami Lola Mariam Maryam
Ngozi Nkechi Nneka Oluchi Patience Peace Rukayat Safiya Simisola Temitope Tolani Udoka Yetunde Zainab
Zara Abimbola Dooshima Ese Idara Mfon Akosua Abena Adwoa Afua Ama Efua Yaa Esi Dzifa Enyonam Naa Adjoa
`);

export const MALE_FIRST_NAMES = words(`
Adebayo Adetokunbo Aminu Babatunde Chinedu Chinonso Chukwuemeka Emeka Emmanuel Garba Gbenga Ibrahim
Ifeanyi Ikechukwu Kabiru Kehinde Kelechi Musa Nanfa Obinna Olumide Oluwaseun Onyeka Sadiq Samuel Segun
Shehu Sunday Tari Tochukwu Tunde Uche Usman Yakubu Yusuf Boma Nsikak Ochuko Terver Kwame Kofi Kwabena
Kwaku Yaw Kojo Kwesi Selorm Edem Nii Fiifi
`);

export const FIRST_NAMES = [...FEMALE_FIRST_NAMES, ...MALE_FIRST_NAMES];

export const LAST_NAMES = words(`
Abdullahi Abubakar Adamu Adebayo Adekunle Adeleke Adeyemi Afolabi Agbaje Ahmed Ajayi Akande Akinola
Akpan Aliyu Amadi Anyanwu Asuquo Ayodele Babangida Balogun Bassey Bello Chukwu Danjuma Dike Ekpo Eze
Ezeh Fashola Garba Ibekwe Ibrahim Idowu Igwe Ikpeazu Ilori Isa Iwu Jibril Kalu Lawal Mohammed Musa
Nnadi Nwachukwu Nwankwo Nwosu Obi Odion Odukoya Ogbu Ogundipe Ojo Okafor Okeke Okon Okonkwo Okoro
Olaniyan Olawale Olayinka Onuoha Onyekachi Orji Oyelaran Sani Shehu Sule Suleiman Tijani Udeh Udoh Ugwu
Umar Umeh Usman Uzor Yakubu Yusuf Zubairu Effiong Etim Ikot Inyang Tor Iorfa Ameh Idoko Agada Ojukwu
Mensah Owusu Boateng Asante Osei Agyeman Appiah Darko Amoah Ofori Quaye Tetteh Addo Agbeko Dzomeku
`);
